package variants

// Many wrong solutions, one build. Linking a lesson's test binary is most of what proving a
// wrong solution costs (docs/benchmarks.md), and most wrong solutions change nothing but the
// bodies of a few functions. Those can share one binary: each changed function is kept once
// per wrong solution under a name of its own, and the function's own name becomes a dispatcher
// that calls the version the process was started for (VariantEnv). Mutation-testing tools call
// this "mutant schemata". Unset, a shared build runs the reference solution.
//
// Only what is provably the same program is shared: the file outside function bodies and
// imports must be byte for byte the reference's (so no type, constant, variable, comment or
// marker differs), and a body that reads its own call stack (recover, runtime.Caller) is
// never moved behind a dispatcher, which would add a frame. Anything else is built alone.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// VariantEnv names the environment variable that tells a shared build which wrong solution to
// run: its number in the build (SharedBuild.Variants).
const VariantEnv = "WORKSHOP_WRONG_VARIANT"

// goFile is a parsed Go file with its text.
type goFile struct {
	fset *token.FileSet
	file *ast.File
	src  []byte
}

func parseGo(name string, src []byte) (goFile, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	return goFile{fset, f, src}, err
}

func (g goFile) offset(p token.Pos) int { return g.fset.Position(p).Offset }

func (g goFile) text(n ast.Node) string { return string(g.src[g.offset(n.Pos()):g.offset(n.End())]) }

// funcs are the file's functions with bodies, by funcKey, in file order.
func (g goFile) funcs() []*ast.FuncDecl {
	var list []*ast.FuncDecl
	for _, d := range g.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			list = append(list, fd)
		}
	}
	return list
}

// funcKey names a function: "Name", or "(*T).Name" for a method.
func (g goFile) funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil {
		return fd.Name.Name
	}
	return "(" + g.text(fd.Recv.List[0].Type) + ")." + fd.Name.Name
}

// imports are the file's import declarations.
func (g goFile) imports() []*ast.GenDecl {
	var list []*ast.GenDecl
	for _, d := range g.file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			list = append(list, gd)
		}
	}
	return list
}

// outline is the file's text with every function body and import declaration cut out: what
// must not differ for two versions of the file to share a build.
func (g goFile) outline() string {
	type cut struct{ from, to int }
	var cuts []cut
	for _, fd := range g.funcs() {
		cuts = append(cuts, cut{g.offset(fd.Body.Pos()), g.offset(fd.Body.End())})
	}
	for _, gd := range g.imports() {
		cuts = append(cuts, cut{g.offset(gd.Pos()), g.offset(gd.End())})
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.from - b.from })
	var b strings.Builder
	at := 0
	for _, c := range cuts {
		b.Write(g.src[at:c.from])
		at = c.to
	}
	b.Write(g.src[at:])
	return b.String()
}

// readsItsStack says a body calls recover or asks for its callers: a dispatcher in front of it
// would change what it finds.
func readsItsStack(body string) bool {
	return strings.Contains(body, "recover(") || strings.Contains(body, "runtime.Caller")
}

// changedBodies compares a wrong solution's file with the reference's. It returns the keys of
// the functions whose bodies differ, or an error saying why the two cannot share a build.
func changedBodies(reference, wrong goFile) ([]string, error) {
	if reference.outline() != wrong.outline() {
		return nil, fmt.Errorf("it changes more than function bodies and imports")
	}
	ref, wr := reference.funcs(), wrong.funcs()
	var changed []string
	for i, fd := range ref {
		before, after := reference.text(fd.Body), wrong.text(wr[i].Body)
		if before == after {
			continue
		}
		key := reference.funcKey(fd)
		switch {
		case fd.Recv == nil && fd.Name.Name == "init":
			return nil, fmt.Errorf("it changes an init function, which cannot be called by name")
		case readsItsStack(before) || readsItsStack(after):
			return nil, fmt.Errorf("it changes %s, which reads its own call stack", key)
		}
		changed = append(changed, key)
	}
	if len(changed) == 0 {
		return nil, fmt.Errorf("it changes no function body")
	}
	return changed, nil
}

// variant is one wrong solution's version of a file, and the functions it changes.
type variant struct {
	number  int
	file    goFile
	changed []string
}

// mergeVariants writes the reference file with every variant's changed functions in it, each
// behind a dispatcher under the function's own name. name is the file's name (it names the
// variable that holds the chosen variant). The result is gofmt'd.
func mergeVariants(name string, reference goFile, variants []variant) ([]byte, error) {
	selector := "wrongSolutionIn" + camel(strings.TrimSuffix(name, ".go"))
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	for _, fd := range reference.funcs() {
		key := reference.funcKey(fd)
		var versions []variant
		for _, v := range variants {
			if slices.Contains(v.changed, key) {
				versions = append(versions, v)
			}
		}
		if len(versions) == 0 {
			continue
		}
		var b strings.Builder
		b.WriteString(dispatcher(reference, fd, selector, versions))
		b.WriteString("\n\n" + renamed(reference, fd, "reference"))
		for _, v := range versions {
			b.WriteString("\n\n" + renamed(v.file, v.file.funcNamed(key), "wrong"+strconv.Itoa(v.number)))
		}
		edits = append(edits, edit{reference.offset(fd.Pos()), reference.offset(fd.End()), b.String()})
	}
	imports := extraImports(reference, variants)
	end := reference.offset(reference.file.Name.End())
	if decls := reference.imports(); len(decls) > 0 {
		end = reference.offset(decls[len(decls)-1].End())
	}
	edits = append(edits, edit{end, end, "\n\nimport (\n" + imports + ")\n"})
	slices.SortFunc(edits, func(a, b edit) int { return a.from - b.from })

	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(reference.src[at:e.from])
		out.WriteString(e.text)
		at = e.to
	}
	out.Write(reference.src[at:])
	fmt.Fprintf(&out, "\n// %s is the wrong solution this build runs, by its number in %s (0: the reference).\n", selector, VariantEnv)
	fmt.Fprintf(&out, "var %s = func() int { n, _ := wrongvariantstrconv.Atoi(wrongvariantos.Getenv(%q)); return n }()\n", selector, VariantEnv)
	return format.Source(out.Bytes())
}

// funcNamed finds the function with key.
func (g goFile) funcNamed(key string) *ast.FuncDecl {
	for _, fd := range g.funcs() {
		if g.funcKey(fd) == key {
			return fd
		}
	}
	return nil
}

// extraImports are the import lines the merged file needs beyond the reference's own: what a
// variant imports that the reference does not, and the selector's two packages under names of
// their own. A clash (one name, two paths) fails the merged build, and the proof then builds
// each wrong solution alone.
func extraImports(reference goFile, variants []variant) string {
	have := map[string]bool{}
	for _, is := range reference.file.Imports {
		have[reference.text(is)] = true
	}
	extra := map[string]bool{}
	for _, v := range variants {
		for _, is := range v.file.file.Imports {
			if line := v.file.text(is); !have[line] {
				extra[line] = true
			}
		}
	}
	var b strings.Builder
	for _, line := range slices.Sorted(maps.Keys(extra)) {
		b.WriteString("\t" + line + "\n")
	}
	b.WriteString("\twrongvariantos \"os\"\n\twrongvariantstrconv \"strconv\"\n")
	return b.String()
}

// renamed is a function's declaration, doc comment left out, under prefix+its name.
func renamed(g goFile, fd *ast.FuncDecl, prefix string) string {
	from, name := g.offset(fd.Pos()), g.offset(fd.Name.Pos())
	return string(g.src[from:name]) + prefix + fd.Name.Name + string(g.src[g.offset(fd.Name.End()):g.offset(fd.End())])
}

// dispatcher is the function under its own name, with the reference's signature, calling the
// version the selector picks.
func dispatcher(g goFile, fd *ast.FuncDecl, selector string, versions []variant) string {
	var sig, call strings.Builder
	sig.WriteString("func ")
	if fd.Recv != nil {
		sig.WriteString("(recv " + g.text(fd.Recv.List[0].Type) + ") ")
		call.WriteString("recv.")
	}
	sig.WriteString(fd.Name.Name)
	typeArgs := ""
	if tp := fd.Type.TypeParams; tp != nil {
		sig.WriteString(g.text(tp))
		var names []string
		for _, f := range tp.List {
			for _, n := range f.Names {
				names = append(names, n.Name)
			}
		}
		typeArgs = "[" + strings.Join(names, ", ") + "]"
	}
	var params, args []string
	for _, f := range fd.Type.Params.List {
		for range max(1, len(f.Names)) {
			p := "p" + strconv.Itoa(len(params))
			params = append(params, p+" "+g.text(f.Type))
			if _, variadic := f.Type.(*ast.Ellipsis); variadic {
				p += "..."
			}
			args = append(args, p)
		}
	}
	sig.WriteString("(" + strings.Join(params, ", ") + ")")
	var results []string
	if fd.Type.Results != nil {
		for _, f := range fd.Type.Results.List {
			for range max(1, len(f.Names)) {
				results = append(results, g.text(f.Type))
			}
		}
	}
	if len(results) > 0 {
		sig.WriteString(" (" + strings.Join(results, ", ") + ")")
	}
	callOf := func(prefix string) string {
		c := call.String() + prefix + fd.Name.Name + typeArgs + "(" + strings.Join(args, ", ") + ")"
		if len(results) > 0 {
			return "return " + c
		}
		return c + "\n\treturn"
	}
	var b strings.Builder // the doc comment stays where it is, above the dispatcher
	b.WriteString(sig.String() + " {\n\tswitch " + selector + " {\n")
	for _, v := range versions {
		fmt.Fprintf(&b, "\tcase %d:\n\t\t%s\n", v.number, callOf("wrong"+strconv.Itoa(v.number)))
	}
	b.WriteString("\t}\n\t" + callOf("reference") + "\n}")
	return b.String()
}

// camel turns a file name such as "guestbook_controller" into "GuestbookController".
func camel(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
