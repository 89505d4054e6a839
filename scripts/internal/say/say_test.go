package say

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// WORKSHOP_LANG decides, then the locale in POSIX's order; a Chinese locale of any region is
// the Chinese edition, anything else English.
func TestLanguage(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want language.Tag
	}{
		{map[string]string{}, language.English},
		{map[string]string{"WORKSHOP_LANG": "zh-CN"}, language.SimplifiedChinese},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, language.SimplifiedChinese},
		{map[string]string{"LC_ALL": "zh_TW.UTF-8"}, language.SimplifiedChinese},
		{map[string]string{"LANG": "en_US.UTF-8"}, language.English},
		{map[string]string{"LANG": "C.UTF-8"}, language.English},
		{map[string]string{"LANG": "de_DE.UTF-8"}, language.English},
		{map[string]string{"LANG": "zh_CN.UTF-8", "WORKSHOP_LANG": "en"}, language.English},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, language.SimplifiedChinese},
		{map[string]string{"LANG": "zh_CN.UTF-8", "LC_ALL": "C"}, language.English},
	} {
		if got := Language(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: got %v, want %v", c.env, got, c.want)
		}
	}
}

// Every line the loop says (the loop, and the lesson and exercise errors of the tool) has its Chinese, with the same verbs for the same arguments (a
// translation may reorder them with %[n]s), and the printer finds it.
func TestEveryLineHasItsChinese(t *testing.T) {
	var lines []string
	for _, dir := range []string{filepath.Join("..", "loop"), filepath.Join("..", "lessons"), filepath.Join("..", "..", "workshop")} {
		for _, line := range saidLines(t, dir) {
			if !slices.Contains(lines, line) {
				lines = append(lines, line)
			}
		}
	}
	if len(lines) < 50 {
		t.Fatalf("found only %d say.* lines in the loop: the scan is broken", len(lines))
	}
	zhPrinter := message.NewPrinter(language.SimplifiedChinese, message.Catalog(zhCatalog))
	for _, english := range lines {
		chinese, ok := zh[english]
		if !ok {
			t.Errorf("no Chinese for %q (internal/say/zh.go)", english)
			continue
		}
		if got, want := argumentVerbs(chinese), argumentVerbs(english); !slices.Equal(got, want) {
			t.Errorf("%q: the Chinese %q formats its arguments as %v, the English as %v", english, chinese, got, want)
		}
		if got := zhPrinter.Sprintf(english); !strings.Contains(got, strings.TrimSpace(strings.SplitN(stripVerbs(chinese), "%", 2)[0])) {
			t.Errorf("the printer does not find the Chinese of %q: it printed %q", english, got)
		}
	}
	for english := range zh {
		if !slices.Contains(lines, english) {
			t.Errorf("zh.go has a line nothing says any more: %q", english)
		}
	}
}

// saidLines are the format strings of every say.Printf, Fprintf, Sprintf and Errorf call in dir.
func saidLines(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !isPackage(sel.X, "say") || len(call.Args) == 0 {
				return true
			}
			format := call.Args[0]
			if sel.Sel.Name == "Fprintf" {
				format = call.Args[1]
			}
			if s, ok := constant(format); ok && !slices.Contains(lines, s) {
				lines = append(lines, s)
			} else if !ok {
				t.Errorf("%s: say.%s's format is not a constant string: it cannot be translated", file, sel.Sel.Name)
			}
			return true
		})
	}
	return lines
}

func isPackage(x ast.Expr, name string) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == name
}

// constant is a string literal, or literals joined with +.
func constant(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return s, err == nil && e.Kind == token.STRING
	case *ast.BinaryExpr:
		a, ok1 := constant(e.X)
		b, ok2 := constant(e.Y)
		return a + b, ok1 && ok2 && e.Op == token.ADD
	}
	return "", false
}

var verb = regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0]*\d*(?:\.\d+)?([a-zA-Z%])`)

// argumentVerbs lists, per argument in order, the verb that formats it ("%-48s" is s).
func argumentVerbs(format string) []string {
	byArg := map[int]string{}
	next := 1
	for _, m := range verb.FindAllStringSubmatch(format, -1) {
		if m[2] == "%" {
			continue
		}
		if m[1] != "" {
			next, _ = strconv.Atoi(m[1])
		}
		byArg[next] = m[2]
		next++
	}
	list := make([]string, len(byArg))
	for i := range list {
		list[i] = byArg[i+1]
	}
	return list
}

func stripVerbs(s string) string { return verb.ReplaceAllString(s, "%") }
