package proof

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/variants"
)

// TestPatchesThatDoNotApplyAreNamed proves the static check names each patch that does not apply
// (with git's words on the file and hunk) or is malformed, across both kinds, and passes the rest.
func TestPatchesThatDoNotApplyAreNamed(t *testing.T) {
	root := t.TempDir()
	l := lessons.Lesson{Name: "10-demo", Number: "10", Dir: filepath.Join(root, "lessons", "10-demo"), SolutionDir: filepath.Join(root, "solutions", "10-demo"), Exercises: []int{1}}
	l.Manifest.OwnSpecs = &lessons.OwnSpecs{Exercise: 1, File: "my_specs_test.go"}
	diff := func(from string) string {
		return "\n--- a/op.go\n+++ b/op.go\n@@ -1 +1 @@\n-" + from + "\n+package demo // wrong\n"
	}
	files := map[string]string{
		filepath.Join(l.Dir, "op.go"):                           "package demo\n\n// TODO(exercise 1): do it.\n",
		filepath.Join(l.SolutionDir, "op.go"):                   "package demo\n",
		filepath.Join(variants.WrongDir(l), "applies.patch"):    "Wrong (exercise 1): it is wrong.\n错误（练习 1）：它是错的。\nWhy.\n" + diff("package demo"),
		filepath.Join(variants.WrongDir(l), "moved-on.patch"):   "Wrong (exercise 1): it is wrong.\n错误（练习 1）：它是错的。\nWhy.\n" + diff("package gone"),
		filepath.Join(l.SolutionDir, "broken", "lazy.patch"):    "Broken: it does nothing.\n缺陷：它什么也不做。\nHow.\n" + diff("package demo"),
		filepath.Join(l.SolutionDir, "broken", "stale.patch"):   "Broken: it does nothing.\n缺陷：它什么也不做。\nHow.\n" + diff("package gone"),
		filepath.Join(l.SolutionDir, "broken", "no-diff.patch"): "Broken: it does nothing.\n缺陷：它什么也不做。\nHow.\n\n",
	}
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, problems, err := unappliable([]lessons.Lesson{l}, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 || len(problems) != 3 {
		t.Fatalf("want 3 of 5 patches reported, got %d of %d:\n%s", len(problems), n, strings.Join(problems, "\n"))
	}
	want := []string{
		"solutions/10-demo/wrong/moved-on.patch: the patch no longer applies to solutions/10-demo/op.go",
		"solutions/10-demo/broken/no-diff.patch: the diff must change exactly one file",
		"solutions/10-demo/broken/stale.patch: the patch no longer applies",
	}
	all := strings.Join(problems, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("want %q among the problems, got:\n%s", w, all)
		}
	}
	if !strings.Contains(all, "patch failed: op.go:1") {
		t.Errorf("want git's words on the hunk, got:\n%s", all)
	}
}
