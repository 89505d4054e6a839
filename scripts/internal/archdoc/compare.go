package archdoc

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// Real is the arrows the code has between the diagram's nodes, each with the imports behind it
// ("pkg/a imports pkg/b"). An import inside one node, or to a package no node names, is no arrow.
func (d Diagram) Real(imports map[string][]string) map[Arrow][]string {
	real := map[Arrow][]string{}
	for pkg, deps := range imports {
		from := d.nodeOf(pkg)
		for _, dep := range deps {
			if to := d.nodeOf(dep); from != "" && to != "" && to != from {
				a := Arrow{from, to}
				real[a] = append(real[a], pkg+" imports "+dep)
			}
		}
	}
	return real
}

// Compare lists what the doc gets wrong: a pattern that names no package, a solid arrow from or
// to a node that is no package, a drawn arrow no import backs, an import no arrow shows.
func (d Diagram) Compare(imports map[string][]string) []string {
	var problems []string
	for _, node := range slices.Sorted(maps.Keys(d.Packages)) {
		for _, p := range d.Packages[node] {
			if !namesAPackage(p, imports) {
				problems = append(problems, fmt.Sprintf("legend: node %s names `%s`, which is no package: fix the legend in docs/architecture.md", node, p))
			}
		}
	}
	real := d.Real(imports)
	drawn := map[Arrow]bool{}
	for _, a := range d.Arrows {
		drawn[a] = true
		switch {
		case len(d.Packages[a.From]) == 0 || len(d.Packages[a.To]) == 0:
			problems = append(problems, fmt.Sprintf("solid arrow %s: %s or %s is no package (the legend names none), so no import can back it: draw it dotted (-.->) in docs/architecture.md", a, a.From, a.To))
		case real[a] == nil:
			problems = append(problems, fmt.Sprintf("drawn arrow %s: no package of %s imports a package of %s (%s): remove the arrow from docs/architecture.md, or add the import it promises", a, a.From, a.To, strings.Join(d.Packages[a.To], ", ")))
		}
	}
	for _, a := range sortedArrows(real) {
		if !drawn[a] {
			slices.Sort(real[a])
			problems = append(problems, fmt.Sprintf("arrow not drawn: %s (%s): draw it in docs/architecture.md or remove the import", a, strings.Join(real[a], "; ")))
		}
	}
	return problems
}

// Mermaid writes the real arrows as diagram lines, one per node that imports ("a --> b & c"),
// for whoever redraws the diagram.
func Mermaid(real map[Arrow][]string) string {
	targets := map[string][]string{}
	for _, a := range sortedArrows(real) {
		targets[a.From] = append(targets[a.From], a.To)
	}
	var b strings.Builder
	for _, from := range slices.Sorted(maps.Keys(targets)) {
		fmt.Fprintf(&b, "    %s --> %s\n", from, strings.Join(targets[from], " & "))
	}
	return b.String()
}

// Check reads the doc at docPath, lists the imports with go list in dir, and returns what the
// doc gets wrong and the real arrows (as Mermaid writes them).
func Check(ctx context.Context, docPath, dir string, env []string) (problems []string, real string, err error) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		return nil, "", err
	}
	d, err := Parse(string(doc))
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", docPath, err)
	}
	imports, err := Imports(ctx, dir, env, d.Patterns())
	if err != nil {
		return nil, "", err
	}
	return d.Compare(imports), Mermaid(d.Real(imports)), nil
}

func sortedArrows(set map[Arrow][]string) []Arrow {
	return slices.SortedFunc(maps.Keys(set), func(a, b Arrow) int {
		return strings.Compare(a.String(), b.String())
	})
}

func namesAPackage(pattern string, imports map[string][]string) bool {
	for pkg := range imports {
		if matches(pattern, pkg) {
			return true
		}
	}
	return false
}
