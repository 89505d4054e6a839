package archdoc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLessonsPrintNothingThemselves backs docs/architecture.md's "internal/lessons does not
// print": its code and its sub-packages' (tests aside) write only to the writers their callers
// hand them, never to the terminal themselves, so loop and proof decide what a learner or a
// maintainer sees.
func TestLessonsPrintNothingThemselves(t *testing.T) {
	var files []string
	for _, pattern := range []string{filepath.Join("..", "lessons", "*.go"), filepath.Join("..", "lessons", "*", "*.go")} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, found...)
	}
	printers := map[string]bool{"os.Stdout": true, "os.Stderr": true, "fmt.Print": true, "fmt.Printf": true,
		"fmt.Println": true, "log.Print": true, "log.Printf": true, "log.Println": true}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") || strings.Contains(filepath.ToSlash(file), "/testdata/") {
			continue // a test's fixture may print: it is a program of its own
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && printers[x.Name+"."+sel.Sel.Name] {
					t.Errorf("%s: internal/lessons uses %s.%s: return the text, or write to a writer the caller hands in", fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
				}
			}
			return true
		})
	}
	if len(files) < 10 {
		t.Fatalf("only %d files in ../lessons and its sub-packages: has the package moved?", len(files))
	}
}

// TestEveryLessonSuiteUsesTheHarness backs "the spec harness every lesson's suite uses": each
// lessons/NN-topic/suite_test.go imports lessons/internal/harness.
func TestEveryLessonSuiteUsesTheHarness(t *testing.T) {
	suites, err := filepath.Glob(filepath.Join("..", "..", "..", "lessons", "*", "suite_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, suite := range suites {
		f, err := parser.ParseFile(token.NewFileSet(), suite, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool {
			return s.Path.Value == `"workshop.local/lessons/internal/harness"`
		}) {
			t.Errorf("%s does not import workshop.local/lessons/internal/harness: build the suite on the harness (docs/authoring.md)", suite)
		}
	}
	if len(suites) < 10 {
		t.Fatalf("only %d lesson suites found: have the lessons moved?", len(suites))
	}
}

// TestSpecBinariesDoNotHoldTheClusterBuilder backs "no spec binary links" cluster/binaries: a
// lesson's specs are given what they need by the tools (lesson 11's kubectl, in
// WORKSHOP_KUBECTL), so none of the cluster's code, the builder of its binaries included, is
// compiled into a learner's spec binary.
func TestSpecBinariesDoNotHoldTheClusterBuilder(t *testing.T) {
	lessons, err := filepath.Glob(filepath.Join("..", "..", "..", "lessons", "[0-9][0-9]-*"))
	if err != nil || len(lessons) < 10 {
		t.Fatalf("only %d lessons found (%v): have the lessons moved?", len(lessons), err)
	}
	for i, l := range lessons {
		lessons[i] = "./" + filepath.ToSlash(l)
	}
	// -tags=workshop: lesson 11's spec files carry it; the other lessons have none to select.
	args := append([]string{"list", "-deps", "-test", "-tags=workshop", "-f", "{{.ImportPath}}"}, lessons...)
	out, err := exec.CommandContext(t.Context(), "go", args...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", lessons, err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "workshop.local/scripts/internal/") {
			t.Errorf("a lesson's specs link %s: the tools should hand the specs what they need (docs/authoring.md, lesson.yaml's kubectl)", pkg)
		}
	}
}
