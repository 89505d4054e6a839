package loop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
)

// A learner who deleted a spec file sees that a file is missing and how to get it back, not the
// compiler's "undefined" errors blamed on an exercise.
func TestAMissingSpecFileIsNamedNotBlamedOnAnExercise(t *testing.T) {
	root := t.TempDir()
	lessonDir := filepath.Join(root, "lessons", "01-demo")
	write := func(rel, content string) {
		t.Helper()
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lessons/01-demo/parse.go", "package demo\n\n// TODO(exercise 1): parse\nfunc Parse() {}\n")
	write("solutions/01-demo/parse.go", "package demo\n\nfunc Parse() {}\n")
	write("lessons/01-demo/helpers_test.go", "package demo\n\nfunc helper() {}\n")
	write("lessons/01-demo/parse_test.go", "package demo\n\nvar _ = helper\n")
	all, err := lessons.Discover(root)
	if err != nil || len(all) != 1 {
		t.Fatalf("discover: %v %v", all, err)
	}
	sums, err := lessons.RenderSums(root, all)
	if err != nil {
		t.Fatal(err)
	}
	write(lessons.SumsFile, string(sums))
	if err := os.Remove(filepath.Join(lessonDir, "helpers_test.go")); err != nil {
		t.Fatal(err)
	}

	c := newChecker(root, filepath.Join(root, ".cache", "check"), all[0], "check", &strings.Builder{}, look{})
	var out strings.Builder
	c.compileFailure(&out, &specrun.BuildError{Output: "parse_test.go:3:9: undefined: helper"})
	for _, want := range []string{"a file the workspace ships is missing (lessons/01-demo/helpers_test.go)", "make reset LESSON=01"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report should say %q; it says:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "exercise 1") || strings.Contains(out.String(), "undefined") {
		t.Errorf("the report still blames an exercise for the missing file:\n%s", out.String())
	}
}
