package lessons

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestEditedSpecsAreNoticed proves a changed, removed or added spec or support file is reported,
// in the lesson and in the harness, while the learner's own files and an own-specs file are not.
func TestEditedSpecsAreNoticed(t *testing.T) {
	l := fakeLesson(t)
	root := filepath.Dir(filepath.Dir(l.Dir))
	l.Manifest.OwnSpecs = &OwnSpecs{Exercise: 1, File: "my_specs_test.go"}
	write(t, filepath.Join(l.Dir, "demo_test.go"), "package demo\n\n// Expect(got).To(Equal(want))\n")
	write(t, filepath.Join(l.Dir, "suite_test.go"), "package demo\n")
	write(t, filepath.Join(l.Dir, "my_specs_test.go"), "package demo\n")
	write(t, filepath.Join(root, harnessDir, "suite.go"), "package harness\n")
	data, err := RenderSums(root, []Lesson{l})
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, SumsFile), string(data))
	if edited, err := l.EditedSupport(root); err != nil || len(edited) != 0 {
		t.Fatalf("as shipped: want nothing edited, got %v (error %v)", edited, err)
	}

	write(t, filepath.Join(l.Dir, "demo.go"), "package demo\n\nfunc Solved() {}\n")     // the learner's file
	write(t, filepath.Join(l.Dir, "my_specs_test.go"), "package demo\n\n// my specs\n") // theirs too
	write(t, filepath.Join(l.Dir, "demo_test.go"), "package demo\n\n// _ = want\n")     // gutted
	write(t, filepath.Join(root, harnessDir, "suite.go"), "package harness\n\n// softer\n")
	if err := os.Remove(filepath.Join(l.Dir, "suite_test.go")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(l.Dir, "extra_test.go"), "package demo\n")
	edited, err := l.EditedSupport(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"added: lessons/01-demo/extra_test.go",
		"changed: lessons/01-demo/demo_test.go",
		"changed: lessons/internal/harness/suite.go",
		"removed: lessons/01-demo/suite_test.go",
	}
	if !slices.Equal(edited, want) {
		t.Fatalf("edited:\n got %v\nwant %v", edited, want)
	}
}
