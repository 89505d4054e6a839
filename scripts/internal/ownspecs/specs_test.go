package ownspecs

import (
	"os"
	"path/filepath"
	"testing"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
)

// specsLesson is a lesson on disk with a learner file and, when broken is set, one broken
// operator: the shape of lesson 10, whose exercise 6 is the learner's own specs.
func specsLesson(t *testing.T, broken bool) lessons.Lesson {
	t.Helper()
	root := t.TempDir()
	l := lessons.Lesson{Name: "10-demo", Number: "10", Dir: filepath.Join(root, "lessons", "10-demo"), SolutionDir: filepath.Join(root, "solutions", "10-demo")}
	files := map[string]string{
		filepath.Join(l.Dir, "op.go"):         "package demo\n\n// TODO(exercise 1): do it.\n",
		filepath.Join(l.SolutionDir, "op.go"): "package demo\n",
	}
	if broken {
		files[filepath.Join(l.SolutionDir, "broken", "lazy.patch")] = "Broken: it does nothing.\n缺陷：它什么也不做。\nEvery function is empty.\n\n--- a/op.go\n+++ b/op.go\n@@ -1 +1 @@\n-package demo\n+package demo // lazy\n"
		l.Manifest.OwnSpecs = &lessons.OwnSpecs{Exercise: 6, File: "my_specs_test.go"}
	}
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func resultOf(done map[int]bool) specrun.Result {
	var res specrun.Result
	for n, passed := range done {
		res.Specs = append(res.Specs, specrun.Spec{Exercise: n, Passed: passed})
	}
	return res
}

// TestTheProofJudgesOwnSpecsOnlyWhenItCan proves when make check replaces exercise 6's specs by
// the proof: exercise 6 alone (and then only the proof runs), or the whole lesson once every
// other exercise passes; never in a lesson without broken operators.
func TestTheProofJudgesOwnSpecsOnlyWhenItCan(t *testing.T) {
	l := specsLesson(t, true)
	cases := []struct {
		name     string
		exercise int
		done     map[int]bool
		want     bool
	}{
		{"exercise 6 alone", 6, nil, true},
		{"another exercise alone", 3, map[int]bool{3: true}, false},
		{"whole lesson, all others pass", 0, map[int]bool{1: true, 5: true, 6: false}, true},
		{"whole lesson, one other fails", 0, map[int]bool{1: true, 5: false, 6: true}, false},
	}
	for _, c := range cases {
		if got := Judges(l, resultOf(c.done), c.exercise); got != c.want {
			t.Errorf("%s: Judges = %v, want %v", c.name, got, c.want)
		}
	}
	if !OnlyTheProof(l, 6) || OnlyTheProof(l, 0) {
		t.Error("only a check of exercise 6 alone should skip the learner's own run")
	}
	plain := specsLesson(t, false)
	if Judges(plain, resultOf(nil), 6) || OnlyTheProof(plain, 6) {
		t.Error("a lesson without own specs has no proof: its exercise 6 is an ordinary one")
	}
}

// TestProofVerdictsAreSpecs proves a verdict becomes a spec of exercise 6 that make check prints
// as one line and counts, with the verdict's line as its failure.
func TestProofVerdictsAreSpecs(t *testing.T) {
	s := proofSpec(6, "Exercise 6: your own specs", "your specs catch the broken operator lazy (it does nothing)", false, "NOT caught lazy: it does nothing; none of your 2 specs noticed\n")
	if s.Exercise != 6 || s.Passed || !s.FromProof {
		t.Fatalf("want a failed proof spec of exercise 6, got %+v", s)
	}
	if s.Report.LeafNodeText != "your specs catch the broken operator lazy (it does nothing)" || s.Failure != "NOT caught lazy: it does nothing; none of your 2 specs noticed" {
		t.Fatalf("line %q, failure %q", s.Report.LeafNodeText, s.Failure)
	}
	if ok := proofSpec(6, "E", "t", true, "caught lazy"); !ok.Passed || ok.Failure != "" {
		t.Fatalf("a passed verdict has no failure, got %+v", ok)
	}
}
