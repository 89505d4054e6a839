package variants

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// patchOf is a wrong solution of demo.go: header, blank line, a diff that turns the solution's
// "package demo" line into "package demo // wrong".
func patchOf(header string) string {
	return header + "\n\n--- a/demo.go\n+++ b/demo.go\n@@ -1 +1 @@\n-package demo\n+package demo // wrong\n"
}

// TestWrongSolutionsAreValidated proves each malformed wrong solution is reported with its
// reason rather than dropped or run, and a well-formed one is read, applied and overlaid.
func TestWrongSolutionsAreValidated(t *testing.T) {
	l := fakeLesson(t)
	const header = "Wrong (exercise 1): it does nothing.\n错误（练习 1）：它什么也不做。\nWhy that is wrong."
	good := patchOf(header)
	cases := map[string]struct{ content, problem string }{
		"fine":             {good, ""},
		"Not-Kebab":        {good, "kebab-case"},
		"not-editable":     {strings.ReplaceAll(good, "demo.go", "other.go"), "not a learner-editable file"},
		"bad-first-line":   {patchOf("Wrong: it does nothing.\nWhy."), "the first line must be"},
		"no-dot":           {patchOf("Wrong (exercise 1): it does nothing\nWhy."), "the first line must be"},
		"no-why":           {patchOf("Wrong (exercise 1): it does nothing.\n错误（练习 1）：它什么也不做。"), "more lines must say why"},
		"no-chinese":       {patchOf("Wrong (exercise 1): it does nothing.\nWhy."), "the second line must be the first in Simplified Chinese"},
		"chinese-in-latin": {patchOf("Wrong (exercise 1): it does nothing.\n错误（练习 1）：it does nothing。\nWhy."), "the second line must be"},
		"other-exercise":   {patchOf("Wrong (exercise 1): it does nothing.\n错误（练习 2）：它什么也不做。\nWhy."), "names exercise 2, the English line exercise 1"},
		"no-blank-line":    {strings.Replace(good, "\n\n---", "\n---", 1), "blank line before the diff"},
		"two-files":        {good + "--- a/demo.go\n+++ b/demo.go\n", "exactly one file"},
		"no-such-exercise": {strings.Replace(strings.Replace(good, "exercise 1", "exercise 7", 1), "练习 1", "练习 7", 1), "has no exercise 7"},
	}
	for name, c := range cases {
		write(t, filepath.Join(WrongDir(l), name+PatchExt), c.content)
	}
	write(t, filepath.Join(WrongDir(l), "old-style", "demo.go"), "package demo\n")
	list, err := Wrong(l)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(cases)+1 {
		t.Fatalf("want %d wrong solutions listed, got %d: %+v", len(cases)+1, len(list), list)
	}
	for _, w := range list {
		c, ok := cases[w.Name]
		switch {
		case !ok:
			if w.Name != "old-style" || !strings.Contains(w.Problem, ".patch") {
				t.Errorf("%s: want a problem about the layout, got %q", w.Name, w.Problem)
			}
		case c.problem == "" && w.Problem != "":
			t.Errorf("%s: want no problem, got %q", w.Name, w.Problem)
		case !strings.Contains(w.Problem, c.problem):
			t.Errorf("%s: want a problem containing %q, got %q", w.Name, c.problem, w.Problem)
		}
		if w.Name == "fine" && (w.Exercise != 1 || w.Summary != "it does nothing" || w.Chinese != "它什么也不做" || w.File != "demo.go") {
			t.Errorf("fine: want exercise 1, the mistake in both languages and demo.go read, got %d %q %q %q", w.Exercise, w.Summary, w.Chinese, w.File)
		}
	}
	fine := list[slices.IndexFunc(list, func(w Patch) bool { return w.Name == "fine" })]
	dir := t.TempDir()
	overlay, err := Overlay(l, fine, dir)
	if err != nil {
		t.Fatal(err)
	}
	applied := overlay[filepath.Join(l.Dir, "demo.go")]
	if data, _ := os.ReadFile(applied); string(data) != "package demo // wrong\n" {
		t.Fatalf("want demo.go overlaid by the patched solution, got %s: %q", applied, data)
	}
}

// TestAPatchThatNoLongerAppliesIsReported proves a wrong solution whose reference moved on fails
// with the reference's name and the way to remake it, instead of proving something else.
func TestAPatchThatNoLongerAppliesIsReported(t *testing.T) {
	l := fakeLesson(t)
	write(t, filepath.Join(WrongDir(l), "fine"+PatchExt), patchOf("Wrong (exercise 1): it does nothing.\n错误（练习 1）：它什么也不做。\nWhy."))
	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package other\n")
	list, _ := Wrong(l)
	_, err := Apply(l, list[0], t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "no longer applies to solutions/01-demo/demo.go") || !strings.Contains(err.Error(), "make wrong-edit LESSON=01 WRONG=fine") {
		t.Fatalf("want the moved reference named and how to remake the patch, got %v", err)
	}
}

// TestPatchTextRoundTrips proves an edited copy of a solution file becomes a patch that reads
// back as the same wrong solution and applies to the same file.
func TestPatchTextRoundTrips(t *testing.T) {
	l := fakeLesson(t)
	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package demo\n\nfunc A() int { return 1 }\n")
	edited := filepath.Join(t.TempDir(), "demo.go")
	write(t, edited, "package demo\n\nfunc A() int { return 2 }\n")
	const header = "Wrong (exercise 1): it returns 2.\n错误（练习 1）：它返回 2。\nA caller counting on 1 breaks.\n"
	patch, err := PatchText(l, header, "demo.go", edited)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(WrongDir(l), "two"+PatchExt), string(patch))
	list, _ := Wrong(l)
	if len(list) != 1 || list[0].Problem != "" || list[0].File != "demo.go" {
		t.Fatalf("the written patch should read back as a well-formed wrong solution, got %+v\n%s", list, patch)
	}
	if list[0].Header() != header {
		t.Fatalf("the header should read back as written (make wrong-edit starts from it):\nwant %q\ngot  %q", header, list[0].Header())
	}
	applied, err := Apply(l, list[0], t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(applied); string(data) != "package demo\n\nfunc A() int { return 2 }\n" {
		t.Fatalf("applied: %q", data)
	}
	if _, err := PatchText(l, "Wrong (exercise 1): x.\n错误（练习 1）：它什么也不做。\ny", "demo.go", filepath.Join(l.SolutionDir, "demo.go")); err == nil {
		t.Fatal("a copy equal to the reference should be refused")
	}
}

// TestTwinsAreValidated proves a wrong solution may name, in a why line, the one it is the same
// mistake as, and is reported when that names no other well-formed wrong solution of its
// exercise, or one that itself names another (twins point at one patch, never in a chain).
func TestTwinsAreValidated(t *testing.T) {
	l := fakeLesson(t)
	l.Exercises = []int{1, 2}
	header := func(exercise int, twin string) string {
		h := fmt.Sprintf("Wrong (exercise %d): it does nothing.\n错误（练习 %d）：它什么也不做。\nWhy that is wrong.", exercise, exercise)
		if twin != "" {
			h += "\nSame mistake as " + twin + "."
		}
		return patchOf(h)
	}
	cases := map[string]struct{ content, problem string }{
		"original":        {header(1, ""), ""},
		"twin":            {header(1, "original"), ""},
		"twin-of-nothing": {header(1, "nowhere"), "not another well-formed wrong solution"},
		"twin-of-itself":  {header(1, "twin-of-itself"), "not another well-formed wrong solution"},
		"twin-of-a-twin":  {header(1, "twin"), "which names original in turn"},
		"other-exercise":  {header(2, "original"), "a mistake of exercise 1, not 2"},
	}
	for name, c := range cases {
		write(t, filepath.Join(WrongDir(l), name+PatchExt), c.content)
	}
	list, err := Wrong(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range list {
		c := cases[w.Name]
		if (c.problem == "") != (w.Problem == "") || !strings.Contains(w.Problem, c.problem) {
			t.Errorf("%s: want a problem containing %q, got %q", w.Name, c.problem, w.Problem)
		}
	}
	same, err := Twins(l)
	if err != nil || len(same) != 1 || same["twin"] != "original" {
		t.Errorf("want only the well-formed twin mapped to original, got %v (%v)", same, err)
	}
}
