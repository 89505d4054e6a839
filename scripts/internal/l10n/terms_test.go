package l10n

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Each case breaks the glossary's rules once in the fixture and names the problems it causes.
func TestGlossaryRules(t *testing.T) {
	for _, c := range []struct {
		name  string
		edits []edit
		want  [][]string
	}{
		{"a rejected word", []edit{{readme, "逐个调谐", "逐个协调"}},
			[][]string{{readme + ":15: 协调 for reconcile: the glossary's word is 调谐, not 协调 (docs/glossary.zh-CN.md:8)"}}},
		{"a rejected word in a diagram's label", []edit{{readme, `["控制器"]`, `["控制程序"]`}},
			[][]string{{readme + ":20: 控制程序 for controller", "the glossary's word is 控制器"}}},
		{"a rejected word in a hints file", []edit{{hints, "三层：", "三层，各有所有者引用："}},
			[][]string{{hints + ":24: 所有者引用 for owner reference: the glossary's word is 属主引用"}}},
		{"another word before a term's English", []edit{{hints, "三层：", "三层，像同步（reconcile）一样："}},
			[][]string{{hints + ":24: 像同步（reconcile）: the glossary's word for reconcile is 调谐"}}},
		{"a term's English in half-width brackets, plural and capitalized", []edit{{hints, "三层：", "三层，像同步 (Reconciles) 一样："}},
			[][]string{{"同步(Reconciles): the glossary's word for reconcile is 调谐"}}},
		{"a first use without its English", []edit{{readme, "控制器（controller）", "控制器"}},
			[][]string{{readme + ":4: the first use of 控制器: follow it with its English in brackets, 控制器（controller）"}}},
		{"the English given later, not at the first use", []edit{{readme, "属主引用（owner reference）", "属主引用"}, {readme, "逐个调谐", "逐个调谐属主引用（owner reference）"}},
			[][]string{{readme + ":4: the first use of 属主引用"}}},
		{"hints need no first use in brackets", []edit{{hints, "三层：", "三层，控制器："}}, nil},
		{"a word with no Han needs no English", []edit{{readme, "借助对象", "借助 Pod 对象"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			expect(t, c.name, problems(t, fixture(t, c.edits...)), c.want...)
		})
	}
}

// A word inside a longer term's word is that term's: 资源 in 定制资源 is no first use of 资源, and
// a rejected word inside a term's word is no rejected word.
func TestWordsInsideLongerTerms(t *testing.T) {
	g := Glossary{Terms: []Term{
		{Line: 1, English: "resource", Chinese: "资源", Rejected: []string{"定制"}},
		{Line: 2, English: "custom resource", Chinese: "定制资源"},
	}}
	text := "定制资源（custom resource）扩展 API；每个资源（resource）都有 URL。"
	if got := append(g.firstUses("f", text), g.rejected("f", text)...); len(got) != 0 {
		t.Errorf("got %v, want none", got)
	}
	text = "定制资源（custom resource）扩展 API；每个资源都有 URL。"
	if got := g.firstUses("f", text); len(got) != 1 || !strings.Contains(got[0].Text, "first use of 资源") {
		t.Errorf("got %v, want the first use of 资源 without its English", got)
	}
}

// An ordinary word that holds a term's word (组件 holds 组) is no use of the term.
func TestOrdinaryWordsAreNoUses(t *testing.T) {
	g, problems := ParseGlossary([]byte("| English | 中文 | 不用 | 说明 |\n| --- | --- | --- | --- |\n| group | 组 | 群组 | |\n\n" +
		"| 词 | 含有 | 说明 |\n| --- | --- | --- |\n| 组件 | 组 | component |\n| 部件 | 组 | holds no 组 |\n"))
	if len(problems) != 1 || !strings.Contains(problems[0].Text, "部件: an ordinary word must hold a term's word") {
		t.Fatalf("problems %v, want one: 部件 holds no 组", problems)
	}
	if got := g.firstUses("f", "每个组件都有自己的组（group）。"); len(got) != 0 {
		t.Errorf("组 inside 组件 taken for the first use of 组: %v", got)
	}
	if got := g.firstUses("f", "每个组件属于一个组。"); len(got) != 1 {
		t.Errorf("a first use of 组 without its English passed: %v", got)
	}
}

func TestParseGlossary(t *testing.T) {
	head := "# 术语表\n\n| English | 中文 | 不用 | 说明 |\n| --- | --- | --- | --- |\n"
	for _, c := range []struct {
		name, table string
		terms       int
		want        []string // a word of each problem
	}{
		{"two terms", "| reconcile | 调谐 | 协调、 调和 | |\n| Pod | Pod | | 不译 |\n", 2, nil},
		{"a term twice", "| reconcile | 调谐 | | |\n| Reconcile | 同步 | | |\n", 2, []string{"reconcile is a term already (line 5)"}},
		{"a word twice", "| reconcile | 调谐 | | |\n| sync | 调谐 | | |\n", 2, []string{"调谐 is a term already"}},
		{"a term's word rejected", "| reconcile | 调谐 | | |\n| sync | 同步 | 调谐 | |\n", 2, []string{"调谐 is rejected for sync, but it is the word of the term at line 5"}},
		{"a row short of a cell", "| reconcile | 调谐 | |\n", 0, []string{":5: a row of 3 cells, want 4"}},
		{"no English", "|  | 调谐 | | |\n", 0, []string{"needs its English and its 中文"}},
	} {
		g, problems := ParseGlossary([]byte(head + c.table))
		if len(g.Terms) != c.terms || len(problems) != len(c.want) {
			t.Errorf("%s: %d terms and problems %v, want %d and %d", c.name, len(g.Terms), problems, c.terms, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(problems[i].String(), w) {
				t.Errorf("%s: %q lacks %q", c.name, problems[i], w)
			}
		}
	}
	g, _ := ParseGlossary([]byte(head + "| `reconcile` | 调谐 | 协调、 调和 | 说明 |\n"))
	if want := (Term{Line: 5, English: "reconcile", Chinese: "调谐", Rejected: []string{"协调", "调和"}}); len(g.Terms) != 1 || !reflect.DeepEqual(g.Terms[0], want) {
		t.Errorf("got %+v, want %+v", g.Terms, want)
	}
	_, problems := ParseGlossary([]byte("# 术语表\n\n| 英文 | 中文 |\n| --- | --- |\n"))
	if len(problems) != 1 || !strings.Contains(problems[0].Text, "no table with the columns English | 中文 | 不用 | 说明") {
		t.Errorf("a glossary without the table: %v", problems)
	}
}

// A workspace with translations but no glossary has one problem more: the glossary is missing.
func TestGlossaryMissing(t *testing.T) {
	root := fixture(t)
	removeFile(t, root, GlossaryFile)
	expect(t, "no glossary", problems(t, root), []string{"docs/glossary.zh-CN.md: missing"})
}

func removeFile(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.Remove(filepath.Join(root, rel)); err != nil {
		t.Fatal(err)
	}
}

// A link's target is no use of a word: an anchor #调谐 before the prose's 调谐（reconcile） is not
// its first use, and a rejected word in a URL is the URL's business.
func TestLinkTargetsAreNoWords(t *testing.T) {
	g := Glossary{Terms: []Term{{Line: 1, English: "reconcile", Chinese: "调谐", Rejected: []string{"协调"}}}}
	d := parseDoc("x.zh-CN.md", []byte("# 标题\n\n见[这一节](#调谐)与<https://example.com/协调>，调谐（reconcile）要幂等。\n"))
	words := d.words(false)
	if got := append(g.firstUses(d.path, words), g.rejected(d.path, words)...); len(got) != 0 {
		t.Errorf("got %v, want none", got)
	}
}
