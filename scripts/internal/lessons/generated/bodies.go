package generated

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"strings"

	"workshop.local/scripts/internal/lessons"
)

// Code generators read a package's declarations and comments, never a function's statements:
// controller-gen its types, fields and markers (// +kubebuilder:... comments), code-generator
// its types and comment tags. A wrong solution that changes only what functions do generates
// exactly what the solution generates, so the generators need not run for it. Every comment is
// compared, those inside function bodies too, so a marker moved anywhere still counts.

// onlyBodiesChanged says whether every file the overlay puts in place other than the solution's
// is a Go file that differs from the solution's only inside function bodies.
func onlyBodiesChanged(l lessons.Lesson, overlay map[string]string) bool {
	solution, err := l.SolutionOverlay()
	if err != nil {
		return false
	}
	for target, source := range overlay {
		if solution[target] == source {
			continue
		}
		reference, ok := solution[target]
		if !ok || !strings.HasSuffix(target, ".go") || !sameOutsideBodies(reference, source) {
			return false
		}
	}
	return true
}

// sameOutsideBodies says whether the Go files a and b have the same comments, in order, and the
// same declarations once every function's body is left out. Unparsable means different.
func sameOutsideBodies(a, b string) bool {
	outlineA, okA := outline(a)
	outlineB, okB := outline(b)
	return okA && okB && outlineA == outlineB
}

// outline prints a Go file's comments, then each declaration without function bodies, each on
// its own, so that a body grown longer shifts no line of what follows.
func outline(path string) (string, bool) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return "", false
	}
	var out bytes.Buffer
	for _, group := range file.Comments {
		out.WriteString(group.Text())
		out.WriteString("\x00")
	}
	out.WriteString("package " + file.Name.Name + "\n")
	for _, decl := range file.Decls {
		if fn, ok := decl.(*ast.FuncDecl); ok {
			stripped := *fn
			stripped.Body, stripped.Doc = nil, nil
			decl = &stripped
		}
		if err := printer.Fprint(&out, fset, decl); err != nil {
			return "", false
		}
		out.WriteString("\n")
	}
	return out.String(), true
}
