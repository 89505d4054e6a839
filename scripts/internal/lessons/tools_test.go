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

// TestToolsModuleElsewhere proves lesson.yaml's toolsModule (relative to the workspace root)
// replaces tools/: a kubebuilder project may hold no other module (lesson 11).
func TestToolsModuleElsewhere(t *testing.T) {
	l := fakeLesson(t)
	root := filepath.Dir(filepath.Dir(l.Dir))
	l.Manifest.ToolsModule = "scripts/lessontools/01-demo"
	write(t, filepath.Join(root, "scripts", "lessontools", "01-demo", "go.mod"), "module demo/tools\n\ngo 1.26.0\n\ntool sigs.k8s.io/kubebuilder/v4\n")
	dir, tools := l.ToolsModule()
	if dir != filepath.Join(root, "scripts", "lessontools", "01-demo") || !slices.Equal(tools, []string{"sigs.k8s.io/kubebuilder/v4"}) {
		t.Fatalf("want the module lesson.yaml names and kubebuilder, got %q %v", dir, tools)
	}
	if got := ToolName("sigs.k8s.io/kubebuilder/v4"); got != "kubebuilder" {
		t.Errorf("ToolName of a major-version path = %q, want kubebuilder (as go build names it)", got)
	}
	if got := ToolName("sigs.k8s.io/controller-tools/cmd/controller-gen"); got != "controller-gen" {
		t.Errorf("ToolName = %q, want controller-gen", got)
	}
}
