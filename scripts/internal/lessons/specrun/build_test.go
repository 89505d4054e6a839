package specrun

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/workspace"
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

// TestRaceLessonWithoutCgoSaysWhatToInstall: a lesson built with -race on a machine without cgo
// must not be reported as "does not compile" with go's cgo message, but say what to install.
// CGO_ENABLED=0 makes go refuse at once; a missing C compiler (the other way, which
// TestRaceNeedsCgo covers) would first compile much of the lesson's dependencies with -race.
func TestRaceLessonWithoutCgoSaysWhatToInstall(t *testing.T) {
	root, err := workspace.Root()
	if err != nil {
		t.Fatal(err)
	}
	l, err := lessons.Find(root, "13")
	if err != nil {
		t.Fatal(err)
	}
	if !l.Manifest.Race {
		t.Skip("lesson 13 no longer builds with -race")
	}
	t.Setenv("CGO_ENABLED", "0")
	err = Build(t.Context(), l, BuildOptions{Binary: filepath.Join(t.TempDir(), "l.test")})
	var be *BuildError
	if err == nil || errors.As(err, &be) {
		t.Fatalf("want an error that is not a BuildError, got %v", err)
	}
	for _, want := range []string{"race detector", "C compiler", "apt install gcc", "make doctor"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}

// TestRaceNeedsCgo: go's words for both ways -race cannot build, and a compile error that is not.
func TestRaceNeedsCgo(t *testing.T) {
	for out, want := range map[string]bool{
		"go: -race requires cgo; enable cgo by setting CGO_ENABLED=1":                                                                       true,
		"# runtime/cgo\ncgo: C compiler \"no-such-c-compiler\" not found: exec: \"no-such-c-compiler\": executable file not found in $PATH": true,
		"./store.go:12:3: undefined: mu": false,
	} {
		if got := raceNeedsCgo(out); got != want {
			t.Errorf("raceNeedsCgo(%q) = %v, want %v", out, got, want)
		}
	}
}
