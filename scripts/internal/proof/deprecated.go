package proof

import (
	"fmt"
	"go/ast"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"honnef.co/go/tools/staticcheck/sa1019"
)

// deprecatedUses runs staticcheck's SA1019 ("use of a deprecated identifier") over the packages
// matching patterns (relative to root, tests included), with overlay (file -> replacement file)
// applied, so the solutions are checked in place without copying them. One load for all
// patterns type-checks the shared dependencies once; buildFlags select tagged files (lesson 11's
// specs). It returns one line per finding.
func deprecatedUses(root string, patterns []string, overlay map[string]string, buildFlags ...string) ([]string, error) {
	contents := map[string][]byte{}
	for file, replacement := range overlay {
		data, err := os.ReadFile(replacement)
		if err != nil {
			return nil, err
		}
		contents[file] = data
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: root, Tests: true, Overlay: contents, BuildFlags: buildFlags}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		return nil, fmt.Errorf("%d package errors loading %v", n, patterns)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{sa1019.Analyzer}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	return findings(graph, overlay), nil
}

// findings lists each diagnostic once (a package and its test variant report the same line),
// naming the solution file where the overlay replaced the learner's. Generated files are left
// out: what a generator writes is fixed by its pinned version (lesson 14's informer-gen v0.37.2
// still sets ListWatch's ListFunc and WatchFunc beside their WithContext variants), and make test
// proves those files are exactly the generator's output.
func findings(graph *checker.Graph, overlay map[string]string) []string {
	seen := map[string]bool{}
	var lines []string
	for act := range graph.All() {
		generated := generatedFiles(act.Package)
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			file := pos.Filename
			if generated[file] {
				continue
			}
			if replacement, ok := overlay[file]; ok {
				file = replacement
			}
			line := fmt.Sprintf("%s:%d: %s", file, pos.Line, strings.TrimSpace(d.Message))
			if !seen[line] {
				seen[line] = true
				lines = append(lines, line)
			}
		}
	}
	return lines
}

// generatedFiles are the files of pkg that say they are generated ("// Code generated ... DO NOT
// EDIT.", as ast.IsGenerated reads it).
func generatedFiles(pkg *packages.Package) map[string]bool {
	files := map[string]bool{}
	for _, f := range pkg.Syntax {
		if ast.IsGenerated(f) {
			files[pkg.Fset.Position(f.FileStart).Filename] = true
		}
	}
	return files
}
