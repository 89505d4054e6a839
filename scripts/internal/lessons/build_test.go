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

// TestTraceLinesAreNotCompilerOutput proves the -x trace is told apart from the compiler's
// messages, so a failed build with progress still reports what the compiler said.
func TestTraceLinesAreNotCompilerOutput(t *testing.T) {
	trace := []string{"mkdir -p $WORK/b001/", "cd /work/lessons/x", "# import config", "packagefile fmt=/root/.cache/x", "/usr/local/go/pkg/tool/linux_amd64/compile -o $WORK/b125/_pkg_.a -p x"}
	for _, line := range trace {
		if !isTraceLine(line) {
			t.Errorf("%q taken for compiler output", line)
		}
	}
	for _, line := range []string{"# workshop.local/lessons/x", "./a.go:4:3: undefined: y", "\thave (int)", "FAIL\tx [build failed]"} {
		if isTraceLine(line) {
			t.Errorf("%q taken for the -x trace", line)
		}
	}
	if got := packageOf(trace[4]); got != "x" {
		t.Errorf("packageOf = %q, want x", got)
	}
}
