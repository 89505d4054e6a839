package lessons

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeLesson lays out lessons/01-demo with one learner file (exercise 1) and its solution.
func fakeLesson(t *testing.T) Lesson {
	t.Helper()
	root := t.TempDir()
	l := Lesson{Name: "01-demo", Number: "01", Dir: filepath.Join(root, "lessons", "01-demo"), SolutionDir: filepath.Join(root, "solutions", "01-demo"), Exercises: []int{1}}
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
