package lessons

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBrokenOperatorsAreValidatedAndOverlaid proves a malformed broken operator is reported with
// its reason, and a well-formed one is read and overlaid over the reference operator, with the
// spec file under test in place as the lesson's own-specs file.
func TestBrokenOperatorsAreValidatedAndOverlaid(t *testing.T) {
	l := fakeLesson(t)
	l.Manifest.OwnSpecs = &OwnSpecs{Exercise: 1, File: "my_specs_test.go"}
	const good = "// Broken: it does nothing.\n// How: every function is empty.\n\npackage demo\n"
	cases := map[string]struct{ file, content, problem string }{
		"fine":         {"demo.go", good, ""},
		"Not-Kebab":    {"demo.go", good, "kebab-name"},
		"not-operator": {"other.go", good, "not a learner file"},
		"no-header":    {"demo.go", "// It does nothing.\n// How.\n\npackage demo\n", "the first line must be"},
		"no-why":       {"demo.go", "// Broken: it does nothing.\n\npackage demo\n", "a second // line"},
	}
	for name, c := range cases {
		write(t, filepath.Join(l.SolutionDir, "broken", name, c.file), c.content)
	}
	list, err := l.BrokenOperators()
	if err != nil || len(list) != len(cases) {
		t.Fatalf("want %d broken operators, got %v (error %v)", len(cases), list, err)
	}
	for _, b := range list {
		want := cases[b.Name].problem
		if (want == "") != (b.Problem == "") || !strings.Contains(b.Problem, want) {
			t.Errorf("%s: want a problem containing %q, got %q", b.Name, want, b.Problem)
		}
		if b.Name != "fine" {
			continue
		}
		if b.Behaviour != "it does nothing" {
			t.Errorf("fine: behaviour %q, want %q", b.Behaviour, "it does nothing")
		}
		overlay, err := l.BrokenOverlay(b, "/specs/my_specs_test.go")
		if err != nil {
			t.Fatal(err)
		}
		if overlay[filepath.Join(l.Dir, "demo.go")] != b.Files[0] || overlay[filepath.Join(l.Dir, "my_specs_test.go")] != "/specs/my_specs_test.go" {
			t.Errorf("the overlay should hold the broken file and the spec file, got %v", overlay)
		}
	}
}
