// Package lessontest is the fixtures the tests of the lesson model's sub-packages share (specrun,
// variants, generated): a fake lesson laid out on disk, and a file written in one call. Package
// lessons' own tests keep their copy: it cannot import this package, which imports it.
package lessontest

import (
	"os"
	"path/filepath"
	"testing"

	"workshop.local/scripts/internal/lessons"
)

// FakeLesson lays out lessons/01-demo with one learner file (exercise 1) and its solution.
func FakeLesson(t *testing.T) lessons.Lesson {
	t.Helper()
	root := t.TempDir()
	l := lessons.Lesson{Name: "01-demo", Number: "01", Dir: filepath.Join(root, "lessons", "01-demo"), SolutionDir: filepath.Join(root, "solutions", "01-demo"), Exercises: []int{1}}
	Write(t, filepath.Join(l.Dir, "demo.go"), "package demo\n\n// TODO(exercise 1): do it.\n")
	Write(t, filepath.Join(l.SolutionDir, "demo.go"), "package demo\n")
	return l
}

// Write writes content to path, making its folder first; a failure ends the test.
func Write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
