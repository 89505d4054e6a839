package lessons

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileErrorsAreAttributedToExercises proves a compiler line is tied to the exercise marker
// nearest above it (or the first below), in learner files and spec files alike.
func TestCompileErrorsAreAttributedToExercises(t *testing.T) {
	dir := t.TempDir()
	learner := "package x\n\n// TODO(exercise 1): a\nfunc A() {}\n\n// TODO(exercise 2): b\nfunc B() {}\n"
	spec := "package x\n\nvar _ = Describe(\"Exercise 3\", harness.Exercise(3), func() {})\n"
	write(t, filepath.Join(dir, "a.go"), learner)
	write(t, filepath.Join(dir, "a_test.go"), spec)
	out := strings.Join([]string{
		"# workshop.local/lessons/x [workshop.local/lessons/x.test]",
		"./a.go:1:1: before every marker",
		"./a.go:4:3: undefined: y",
		"./a.go:7:3: undefined: z",
		"./a_test.go:3:10: wrong",
		"FAIL\tworkshop.local/lessons/x [build failed]",
	}, "\n")
	errs := compileErrors(dir, out)
	want := []int{1, 1, 2, 3}
	if len(errs) != len(want) {
		t.Fatalf("got %d compile errors, want %d: %+v", len(errs), len(want), errs)
	}
	for i, e := range errs {
		if got := ExerciseAt(e.File, e.Line); got != want[i] {
			t.Errorf("%s: exercise %d, want %d", e.Message, got, want[i])
		}
	}
}
