package archdoc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchitectureDocMatchesImports: docs/architecture.md draws every import between the packages
// its nodes name, and only those.
func TestArchitectureDocMatchesImports(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	problems, real, err := Check(context.Background(), filepath.Join(root, "docs", "architecture.md"), root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) > 0 {
		t.Logf("the imports between the legend's nodes, as diagram lines (keep the doc's labels and dotted arrows):\n%s", real)
	}
}

// TestFixture shows the check on a module of three packages (a imports b, b imports c) and a
// doc that draws exactly that.
func TestFixture(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("testdata", "arch.md"))
	if err != nil {
		t.Fatal(err)
	}
	correct := string(doc)
	for _, c := range []struct {
		name, doc string
		want      []string // a word of each problem, in order
	}{
		{"correct", correct, nil},
		{"an import not drawn", strings.Replace(correct, "    b --> c[\"package c\"]\n", "    c[\"package c\"]\n", 1),
			[]string{"arrow not drawn: b --> c (example.test/fixture/b imports example.test/fixture/c): draw it in docs/architecture.md or remove the import"}},
		{"an arrow no import backs", strings.Replace(correct, "    b --> c", "    a --> c\n    b --> c", 1),
			[]string{"drawn arrow a --> c: no package of a imports a package of c"}},
		{"a solid arrow from a program", strings.Replace(correct, "-.->", "-->", 1),
			[]string{"solid arrow run --> a: run or a is no package"}},
		{"a legend that names no package", strings.Replace(correct, "fixture/c/...", "fixture/d", 1),
			[]string{"node c names `example.test/fixture/d`, which is no package", "drawn arrow b --> c"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := check(t, c.doc)
			if len(got) != len(c.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(got), len(c.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.Contains(got[i], c.want[i]) {
					t.Errorf("problem %d: got %q, want it to contain %q", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestParseNeedsALegendRowPerNode(t *testing.T) {
	_, err := Parse("```mermaid\nflowchart TD\n    a --> b\n```\n\n| node | packages |\n| `a` | `x/a` |\n")
	if err == nil || !strings.Contains(err.Error(), "node b is drawn but has no row") {
		t.Errorf("got %v, want an error naming node b", err)
	}
}

func check(t *testing.T, doc string) []string {
	t.Helper()
	d, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod"}
	imports, err := Imports(context.Background(), filepath.Join("testdata", "mod"), env, d.Patterns())
	if err != nil {
		t.Fatal(err)
	}
	return d.Compare(imports)
}

func TestParseSkipsGroupingAndStyling(t *testing.T) {
	d, err := Parse("```mermaid\nflowchart TD\n    %% a comment\n    subgraph tools\n    a[\"A\"] --> b[\"B\"]\n    end\n    style a fill:#eee\n```\n\n| node | packages |\n| `a` | `x/a` |\n| `b` | `x/b` |\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Arrows) != 1 || d.Arrows[0] != (Arrow{"a", "b"}) {
		t.Errorf("arrows %v, want [a --> b]", d.Arrows)
	}
}
