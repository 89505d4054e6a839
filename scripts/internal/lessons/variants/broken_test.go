package variants

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
)

// brokenOf is a broken operator of demo.go: the same diff as patchOf's, after header.
func brokenOf(header string) string { return patchOf(header) }

// TestBrokenOperatorsAreValidatedAndOverlaid proves a malformed broken operator is reported with
// its reason, and a well-formed one is read and overlaid over the reference operator, patched,
// with the spec file under test in place as the lesson's own-specs file.
func TestBrokenOperatorsAreValidatedAndOverlaid(t *testing.T) {
	l := fakeLesson(t)
	l.Manifest.OwnSpecs = &lessons.OwnSpecs{Exercise: 1, File: "my_specs_test.go"}
	write(t, filepath.Join(l.Dir, "demo_test.go"), "package demo\n")
	write(t, filepath.Join(l.SolutionDir, "demo_test.go"), "package demo\n")
	good := brokenOf("Broken: it does nothing.\n缺陷：它什么也不做。\nHow: every function is empty.")
	cases := map[string]struct{ content, problem string }{
		"fine":         {good, ""},
		"Not-Kebab":    {good, "kebab-case"},
		"not-operator": {strings.ReplaceAll(good, "demo.go", "other.go"), "not a learner-editable file"},
		"a-spec-file":  {strings.ReplaceAll(good, "demo.go", "demo_test.go"), "a spec file"},
		"wrong-header": {brokenOf("Wrong (exercise 1): it does nothing.\n错误（练习 1）：它什么也不做。\nHow."), "the first line must be `Broken: "},
		"no-why":       {brokenOf("Broken: it does nothing.\n缺陷：它什么也不做。"), "more lines must say why"},
		"no-chinese":   {brokenOf("Broken: it does nothing.\nHow."), "the second line must be the first in Simplified Chinese, `缺陷："},
		"empty-diff":   {"Broken: it does nothing.\n缺陷：它什么也不做。\nHow: it does not.\n\n", "changes 0"},
	}
	for name, c := range cases {
		write(t, filepath.Join(l.SolutionDir, "broken", name+PatchExt), c.content)
	}
	write(t, filepath.Join(l.SolutionDir, "broken", "old-style", "demo.go"), "// Broken: it does nothing.\n// How.\n\npackage demo\n")
	list, err := Broken(l)
	if err != nil || len(list) != len(cases)+1 {
		t.Fatalf("want %d broken operators, got %v (error %v)", len(cases)+1, list, err)
	}
	for _, b := range list {
		c, ok := cases[b.Name]
		if !ok {
			c.problem = "broken/<kebab-name>.patch" // old-style: a folder is no longer read
		}
		if (c.problem == "") != (b.Problem == "") || !strings.Contains(b.Problem, c.problem) {
			t.Errorf("%s: want a problem containing %q, got %q", b.Name, c.problem, b.Problem)
		}
		if b.Name != "fine" {
			continue
		}
		if b.Summary != "it does nothing" || b.Exercise != 1 || b.File != "demo.go" {
			t.Errorf("fine: want its behaviour, the own-specs exercise and demo.go, got %q %d %q", b.Summary, b.Exercise, b.File)
		}
		overlay, err := BrokenOverlay(l, b, "/specs/my_specs_test.go", t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		patched := overlay[filepath.Join(l.Dir, "demo.go")]
		if data, _ := os.ReadFile(patched); string(data) != "package demo // wrong\n" || overlay[filepath.Join(l.Dir, "my_specs_test.go")] != "/specs/my_specs_test.go" {
			t.Errorf("the overlay should hold the patched operator file and the spec file, got %v (%q)", overlay, data)
		}
	}
}

// TestABrokenOperatorOfALessonWithoutOwnSpecsIsReported proves broken/ means nothing where no
// exercise asks the learner for specs: it is reported rather than silently proving nothing.
func TestABrokenOperatorOfALessonWithoutOwnSpecsIsReported(t *testing.T) {
	l := fakeLesson(t)
	write(t, filepath.Join(l.SolutionDir, "broken", "lazy"+PatchExt), brokenOf("Broken: it does nothing.\n缺陷：它什么也不做。\nHow."))
	list, _ := Broken(l)
	if len(list) != 1 || !strings.Contains(list[0].Problem, "no own-specs exercise") {
		t.Fatalf("want the missing ownSpecs reported, got %+v", list)
	}
}

// TestABrokenOperatorThatNoLongerAppliesIsReported proves the applier names the patch's file and
// git's words on the hunk, and says how to remake a broken operator (BROKEN=, not WRONG=).
func TestABrokenOperatorThatNoLongerAppliesIsReported(t *testing.T) {
	l := fakeLesson(t)
	l.Manifest.OwnSpecs = &lessons.OwnSpecs{Exercise: 1, File: "my_specs_test.go"}
	write(t, filepath.Join(l.SolutionDir, "broken", "lazy"+PatchExt), brokenOf("Broken: it does nothing.\n缺陷：它什么也不做。\nHow."))
	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package moved\n")
	list, _ := Broken(l)
	_, err := Apply(l, list[0], t.TempDir())
	for _, want := range []string{"no longer applies to solutions/01-demo/demo.go", "make wrong-edit LESSON=01 BROKEN=lazy", "patch failed: demo.go:1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want an error containing %q, got %v", want, err)
		}
	}
}

// TestAPatchThatChangesNothingIsRefused proves a diff whose hunk leaves the file as it was (a
// broken operator reverted to a no-op) cannot pass for a bug.
func TestAPatchThatChangesNothingIsRefused(t *testing.T) {
	l := fakeLesson(t)
	l.Manifest.OwnSpecs = &lessons.OwnSpecs{Exercise: 1, File: "my_specs_test.go"}
	noop := "Broken: it does nothing.\n缺陷：它什么也不做。\nHow.\n\n--- a/demo.go\n+++ b/demo.go\n@@ -1 +1 @@\n-package demo\n+package demo\n"
	write(t, filepath.Join(l.SolutionDir, "broken", "noop"+PatchExt), noop)
	list, _ := Broken(l)
	if _, err := Apply(l, list[0], t.TempDir()); err == nil || !strings.Contains(err.Error(), "changes nothing") {
		t.Fatalf("want a no-op patch refused, got %v", err)
	}
}

// TestAPatchAppliesFromARelativePath proves a lesson found from a relative root still applies:
// git runs in a scratch folder, where the patch's relative path named nothing ("can't open
// patch"), which read as a reference that had moved on.
func TestAPatchAppliesFromARelativePath(t *testing.T) {
	l := fakeLesson(t)
	l.Manifest.OwnSpecs = &lessons.OwnSpecs{Exercise: 1, File: "my_specs_test.go"}
	write(t, filepath.Join(l.SolutionDir, "broken", "lazy"+PatchExt), brokenOf("Broken: it does nothing.\n缺陷：它什么也不做。\nHow."))
	root := filepath.Dir(filepath.Dir(l.Dir))
	t.Chdir(root)
	l.Dir, l.SolutionDir = filepath.Join("lessons", "01-demo"), filepath.Join("solutions", "01-demo")
	list, _ := Broken(l)
	if _, err := Apply(l, list[0], t.TempDir()); err != nil {
		t.Fatalf("want the patch applied from a relative path, got %v", err)
	}
}
