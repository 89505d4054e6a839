package lessons

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestToolsModuleListsItsTools proves a lesson's tools/go.mod is found with its tool lines (make
// prepare builds them and make kit packs their modules), and a lesson without one has none.
func TestToolsModuleListsItsTools(t *testing.T) {
	l := fakeLesson(t)
	if dir, tools := l.ToolsModule(); dir != "" || tools != nil {
		t.Fatalf("a lesson without tools/go.mod has no tools, got %q %v", dir, tools)
	}
	write(t, filepath.Join(l.Dir, "tools", "go.mod"), "module demo/tools\n\ngo 1.26.0\n\ntool sigs.k8s.io/controller-tools/cmd/controller-gen\n\nrequire example.com/x v1.0.0 // indirect\n")
	dir, tools := l.ToolsModule()
	if dir != filepath.Join(l.Dir, "tools") || !slices.Equal(tools, []string{"sigs.k8s.io/controller-tools/cmd/controller-gen"}) {
		t.Fatalf("want the tools folder and controller-gen, got %q %v", dir, tools)
	}
	// go mod tidy gathers several tool lines into a block; a line reader took "(" for a tool.
	write(t, filepath.Join(l.Dir, "tools", "go.mod"), "module demo/tools\n\ngo 1.26.0\n\ntool (\n\tk8s.io/code-generator/cmd/client-gen\n\tk8s.io/code-generator/cmd/lister-gen\n)\n")
	if _, tools = l.ToolsModule(); !slices.Equal(tools, []string{"k8s.io/code-generator/cmd/client-gen", "k8s.io/code-generator/cmd/lister-gen"}) {
		t.Fatalf("want both tools of a tool block, got %v", tools)
	}
}
