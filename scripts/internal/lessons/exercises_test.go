package lessons

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTheREADMENamesTheExercises proves the README's headings are what a discovered lesson's
// exercises are (a heading inside a code block is none), and that a README exercise without a
// TODO marker, and a marker of an exercise the README lacks, are each reported by place.
func TestTheREADMENamesTheExercises(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "lessons", "01-demo")
	write(t, filepath.Join(dir, ReadmeFile), "# Demo\n\n### Exercise 1: one (demo.go)\n\n```md\n### Exercise 9: in a sample\n```\n\n### Exercise 2: two (demo.go)\n")
	write(t, filepath.Join(dir, "demo.go"), "package demo\n\n// TODO(exercise 1): do it.\n\n// TODO(exercise 3): and this.\n")
	write(t, filepath.Join(root, "solutions", "01-demo", "demo.go"), "package demo\n")
	all, err := Discover(root)
	if err != nil || len(all) != 1 {
		t.Fatalf("want one lesson, got %v (%v)", all, err)
	}
	l := all[0]
	if !slices.Equal(l.Exercises, []int{1, 2}) {
		t.Fatalf("want the README's exercises [1 2], got %v", l.Exercises)
	}
	problems := strings.Join(l.CheckExercises(), "\n")
	for _, want := range []string{
		"exercise 2 of the README has no TODO(exercise 2) marker",
		"lessons/01-demo/demo.go:5: TODO(exercise 3) names an exercise the README does not introduce",
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("want %q among the problems, got:\n%s", want, problems)
		}
	}
	if file, line := l.TODO(1); file != "demo.go" || line != 3 {
		t.Errorf("want exercise 1's marker at demo.go:3, got %s:%d", file, line)
	}
}
