package lessons

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"workshop.local/scripts/internal/subprocess"
)

// ToolsModule is the lesson's own module of pinned tools, tools/go.mod (lesson 10: controller-gen
// for make generate), or the folder lesson.yaml's toolsModule names (lesson 11's, under
// scripts/lessontools/), built outside go.work so its dependencies never move a lesson's build. It
// returns the module's folder and the packages of its `tool` directives (one per line or in a
// block, as go mod tidy writes them), or "" and none when the lesson has no such module.
func (l Lesson) ToolsModule() (dir string, tools []string) {
	dir = filepath.Join(l.Dir, "tools")
	if m := l.Manifest.ToolsModule; m != "" {
		dir = filepath.Join(l.Dir, "..", "..", filepath.FromSlash(m))
	}
	path := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(path)
	if err != nil {
		return "", nil
	}
	mod, err := modfile.Parse(path, data, nil)
	if err != nil {
		return dir, nil // go itself will say what is wrong with it, at the first build
	}
	for _, t := range mod.Tool {
		tools = append(tools, t.Path)
	}
	return dir, tools
}

// BuildTool builds a tool of the lesson's tools module into the workspace's .cache/bin (a
// second when it is current) and returns the binary's path.
func (l Lesson) BuildTool(ctx context.Context, tool string) (string, error) {
	toolsDir, _ := l.ToolsModule()
	if toolsDir == "" {
		return "", fmt.Errorf("lesson %s has no tools/go.mod to build %s from", l.Number, tool)
	}
	root, err := filepath.Abs(filepath.Dir(filepath.Dir(l.Dir))) // lessons/NN-topic is two below the root
	if err != nil {
		return "", err
	}
	binary := filepath.Join(root, ".cache", "bin", ToolName(tool))
	build := subprocess.Command(ctx, "go", "build", "-o", binary, tool)
	build.Dir, build.Env = toolsDir, append(os.Environ(), "GOWORK=off")
	if b, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s for lesson %s failed: %v\n%s", tool, l.Number, err, b)
	}
	return binary, nil
}

// ToolName is the name go build gives a tool's binary: its import path's last element, or the
// one before a major version suffix (sigs.k8s.io/kubebuilder/v4 is kubebuilder).
func ToolName(tool string) string {
	name := path.Base(tool)
	if dir := path.Dir(tool); majorSuffix.MatchString(name) && dir != "." {
		return path.Base(dir)
	}
	return name
}

var majorSuffix = regexp.MustCompile(`^v[2-9][0-9]*$`)

// goInstalled is how kubebuilder's Makefile names what it installs (its go-install-tool recipe).
var goInstalled = regexp.MustCompile(`package=(\S+@\S+)`)

// MakefileTools lists the tools (module/cmd@version) that the targets lesson.yaml's prepare
// names install with go install, read from what make would run (make -n -B): the Makefile says
// which versions, nowhere else. make prepare installs them once, make kit collects their modules.
func (l Lesson) MakefileTools(ctx context.Context) ([]string, error) {
	if len(l.Manifest.Prepare) == 0 {
		return nil, nil
	}
	scratch, err := os.MkdirTemp("", "makefile-tools-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	args := append([]string{"-n", "-B", "--no-print-directory", "-C", l.Dir, "LOCALBIN=" + scratch}, l.Manifest.Prepare...)
	out, err := subprocess.Command(ctx, "make", args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("make -n %s in lessons/%s: %v\n%s", strings.Join(l.Manifest.Prepare, " "), l.Name, err, out)
	}
	var tools []string
	for _, m := range goInstalled.FindAllStringSubmatch(string(out), -1) {
		if !slices.Contains(tools, m[1]) {
			tools = append(tools, m[1])
		}
	}
	if len(tools) == 0 {
		return nil, fmt.Errorf("make -n %s in lessons/%s installs nothing with go install", strings.Join(l.Manifest.Prepare, " "), l.Name)
	}
	return tools, nil
}
