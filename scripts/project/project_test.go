package project

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := writeFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// workspace is a workspace with a lesson that replaces the harness module by a relative path,
// as the real lessons do.
func workspace(t *testing.T) (root, lesson string) {
	root = t.TempDir()
	lesson = filepath.Join(root, "lessons", "11-demo")
	write(t, filepath.Join(root, "go.work"), "go 1.26.0\n\nuse (\n\t./lessons/11-demo\n\t./lessons/internal\n)\n")
	write(t, filepath.Join(root, "lessons", "internal", "go.mod"), "module example.com/internal\n\ngo 1.26.0\n")
	write(t, filepath.Join(root, "lessons", "internal", "h", "h.go"), "package h\n\nconst Name = \"harness\"\n")
	write(t, filepath.Join(lesson, "go.mod"), "module example.com/demo\n\ngo 1.26.0\n\nrequire example.com/internal v0.0.0\n\nreplace example.com/internal => ../internal\n")
	write(t, filepath.Join(lesson, "main.go"), "package main\n\nimport \"example.com/internal/h\"\n\nfunc main() { println(h.Name, starter) }\n")
	write(t, filepath.Join(lesson, "starter.go"), "package main\n\nconst starter = \"starter\"\n")
	write(t, filepath.Join(lesson, "config", "crd.yaml"), "starter\n")
	write(t, filepath.Join(lesson, "bin", "tool"), "a binary a Makefile installed\n")
	return root, lesson
}

// TestCopyIsWhatTheOverlaySees proves the copy holds the overlay's files where the build sees
// them (replaced, added, deleted), leaves bin/ out, and builds in the workspace's place of the lesson.
func TestCopyIsWhatTheOverlaySees(t *testing.T) {
	_, lesson := workspace(t)
	solution := t.TempDir()
	write(t, filepath.Join(solution, "solution.go"), "package main\n\nconst starter = \"solution\"\n")
	write(t, filepath.Join(solution, "crd.yaml"), "solution\n")
	overlayFile := filepath.Join(t.TempDir(), "overlay.json")
	data, _ := json.Marshal(map[string]any{"Replace": map[string]string{
		filepath.Join(lesson, "starter.go"):          "",
		filepath.Join(lesson, "starter_overlaid.go"): filepath.Join(solution, "solution.go"),
		filepath.Join(lesson, "config", "crd.yaml"):  filepath.Join(solution, "crd.yaml"),
		filepath.Join(lesson, "config", "new.yaml"):  filepath.Join(solution, "crd.yaml"),
	}})
	write(t, overlayFile, string(data))
	t.Setenv(OverlayEnv, overlayFile)
	o, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := o.ReadFile(filepath.Join(lesson, "config", "new.yaml")); err != nil || string(got) != "solution\n" {
		t.Errorf("ReadFile of a file the overlay adds = %q, %v; want the solution's", got, err)
	}
	if _, err := o.ReadFile(filepath.Join(lesson, "starter.go")); !os.IsNotExist(err) {
		t.Errorf("ReadFile of a file the overlay deletes: want not-exist, got %v", err)
	}

	dst := filepath.Join(t.TempDir(), "copy")
	env, err := Copy(lesson, o, dst)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"config/crd.yaml": "solution\n", "config/new.yaml": "solution\n"} {
		if got, _ := os.ReadFile(filepath.Join(dst, path)); string(got) != want {
			t.Errorf("%s in the copy = %q, want %q", path, got, want)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dst, "starter.go")); !strings.Contains(string(got), `"solution"`) {
		t.Errorf("starter.go in the copy should be the solution's file under its own name, got %q", got)
	}
	for _, gone := range []string{"starter_overlaid.go", "bin/tool"} {
		if _, err := os.Stat(filepath.Join(dst, gone)); !os.IsNotExist(err) {
			t.Errorf("%s should not be in the copy (%v)", gone, err)
		}
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir, cmd.Env = dst, append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "harness solution" {
		t.Fatalf("go run in the copy: %v\n%s", err, out)
	}
}
