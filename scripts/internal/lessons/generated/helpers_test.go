package generated

import (
	"os"
	"path/filepath"
	"testing"

	"workshop.local/scripts/internal/lessons"
)

// fakeLesson lays out lessons/01-demo with one learner file (exercise 1) and its solution.
func fakeLesson(t *testing.T) lessons.Lesson {
	t.Helper()
	root := t.TempDir()
	l := lessons.Lesson{Name: "01-demo", Number: "01", Dir: filepath.Join(root, "lessons", "01-demo"), SolutionDir: filepath.Join(root, "solutions", "01-demo")}
	write(t, filepath.Join(l.Dir, "demo.go"), "package demo\n\n// TODO(exercise 1): do it.\n")
	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package demo\n")
	return l
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
