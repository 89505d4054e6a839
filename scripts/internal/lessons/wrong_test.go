package lessons

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeLesson lays out lessons/01-demo with one learner file (exercise 1) and its solution.
func fakeLesson(t *testing.T) Lesson {
	t.Helper()
	root := t.TempDir()
	l := Lesson{Name: "01-demo", Number: "01", Dir: filepath.Join(root, "lessons", "01-demo"), SolutionDir: filepath.Join(root, "solutions", "01-demo")}
	write(t, filepath.Join(l.Dir, "demo.go"), "package demo\n\n// TODO(exercise 1): do it.\n")
	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package demo\n")
	return l
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWrongSolutionsAreValidated proves each malformed wrong solution is reported with its
// reason rather than dropped or run, and a well-formed one is read and overlaid.
func TestWrongSolutionsAreValidated(t *testing.T) {
	l := fakeLesson(t)
	const good = "// Wrong (exercise 1): it does nothing.\n// Why that is wrong.\n\npackage demo\n"
	cases := map[string]struct{ file, content, problem string }{
		"fine":             {"demo.go", good, ""},
		"Not-Kebab":        {"demo.go", good, "kebab-case"},
		"not-editable":     {"other.go", good, "not a learner-editable file"},
		"bad-first-line":   {"demo.go", "// Wrong: it does nothing.\n// Why.\n\npackage demo\n", "the first line must be"},
		"no-dot":           {"demo.go", "// Wrong (exercise 1): it does nothing\n// Why.\n\npackage demo\n", "the first line must be"},
		"no-why":           {"demo.go", "// Wrong (exercise 1): it does nothing.\n\npackage demo\n", "more // lines"},
		"no-blank-line":    {"demo.go", "// Wrong (exercise 1): it does nothing.\n// Why.\npackage demo\n", "blank line and the package clause"},
		"no-such-exercise": {"demo.go", strings.Replace(good, "exercise 1", "exercise 7", 1), "has no exercise 7"},
	}
	for name, c := range cases {
		write(t, filepath.Join(l.WrongDir(), name, c.file), c.content)
	}
	write(t, filepath.Join(l.WrongDir(), "loose.go"), good)
	list, err := l.WrongSolutions()
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
			if w.Name != "loose.go" || !strings.Contains(w.Problem, "is a folder") {
				t.Errorf("%s: want a problem about the folder layout, got %q", w.Name, w.Problem)
			}
		case c.problem == "" && w.Problem != "":
			t.Errorf("%s: want no problem, got %q", w.Name, w.Problem)
		case !strings.Contains(w.Problem, c.problem):
			t.Errorf("%s: want a problem containing %q, got %q", w.Name, c.problem, w.Problem)
		}
		if w.Name == "fine" && (w.Exercise != 1 || w.Mistake != "it does nothing") {
			t.Errorf("fine: want exercise 1 and the mistake read, got %d %q", w.Exercise, w.Mistake)
		}
	}
	overlay, err := l.WrongOverlay(Wrong{File: "demo.go", Path: "/wrong/demo.go"})
	if err != nil || overlay[filepath.Join(l.Dir, "demo.go")] != "/wrong/demo.go" {
		t.Fatalf("want demo.go overlaid by the wrong file, got %v (%v)", overlay, err)
	}
}
