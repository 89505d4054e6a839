package l10n

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// The glossary, docs/glossary.zh-CN.md, fixes one Chinese word per English term, following the
// Kubernetes website's zh-cn pages where they have one. It is a Markdown table:
//
//	| English | 中文 | 不用 | 说明 |
//	| --- | --- | --- | --- |
//	| reconcile | 调谐 | 协调、调和 | ... |
//
// 不用 lists the words a translator might reach for and must not (separated by 、, may be empty).
//
// A second table lists ordinary words that hold a term's word and are no use of it (组件,
// "component", holds 组, "group"): the check reads them as words of their own, so a translator
// need not write around them.
//
//	| 词 | 含有 | 说明 |
//	| --- | --- | --- |
//	| 组件 | 组 | component |

// Term is one row of the glossary.
type Term struct {
	Line     int      // in the glossary
	English  string   // "reconcile"
	Chinese  string   // "调谐"
	Rejected []string // "协调", "调和"
}

// Glossary is the glossary's terms, in its order, and the ordinary words that hold one.
type Glossary struct {
	Terms    []Term
	Ordinary []string // 组件: no use of 组
}

// glossaryColumns is the glossary table's header row; ordinaryColumns the second table's.
var (
	glossaryColumns = []string{"English", "中文", "不用", "说明"}
	ordinaryColumns = []string{"词", "含有", "说明"}
)

// ParseGlossary reads the glossary's table, and lists what is wrong with it: a row that is not
// a term, a term twice, a rejected word that is some term's own word.
func ParseGlossary(data []byte) (Glossary, []Problem) {
	d := parseDoc(GlossaryFile, data)
	start := tableStart(d.lines, glossaryColumns)
	if start < 0 {
		return Glossary{}, []Problem{{File: GlossaryFile, Text: "no table with the columns " + strings.Join(glossaryColumns, " | ")}}
	}
	var g Glossary
	var problems []Problem
	for i := start + 2; i < len(d.lines) && strings.HasPrefix(strings.TrimSpace(d.lines[i]), "|"); i++ {
		t, problem := parseTerm(i+1, tableCells(d.lines[i]))
		if problem != "" {
			problems = append(problems, Problem{File: GlossaryFile, Line: i + 1, Text: problem})
			continue
		}
		g.Terms = append(g.Terms, t)
	}
	ordinary, more := g.ordinaryWords(d.lines)
	g.Ordinary = ordinary
	return g, append(append(problems, more...), g.contradictions()...)
}

// ordinaryWords reads the second table: each word must hold the term's word it names.
func (g Glossary) ordinaryWords(lines []string) ([]string, []Problem) {
	start := tableStart(lines, ordinaryColumns)
	if start < 0 {
		return nil, nil
	}
	var words []string
	var problems []Problem
	for i := start + 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
		cells := tableCells(lines[i])
		switch {
		case len(cells) != len(ordinaryColumns):
			problems = append(problems, Problem{File: GlossaryFile, Line: i + 1, Text: fmt.Sprintf("a row of %d cells, want %d (%s)", len(cells), len(ordinaryColumns), strings.Join(ordinaryColumns, " | "))})
		case !g.hasWord(cells[1]) || !strings.Contains(cells[0], cells[1]) || cells[0] == cells[1]:
			problems = append(problems, Problem{File: GlossaryFile, Line: i + 1, Text: fmt.Sprintf("%s: an ordinary word must hold a term's word (含有 names it) and be longer: %s is no such word", cells[0], cells[1])})
		default:
			words = append(words, cells[0])
		}
	}
	return words, problems
}

// hasWord says whether word is some term's 中文.
func (g Glossary) hasWord(word string) bool {
	for _, t := range g.Terms {
		if t.Chinese == word {
			return true
		}
	}
	return false
}

// tableStart is the index of the header row of the table with these columns, or -1.
func tableStart(lines []string, columns []string) int {
	for i, line := range lines {
		if cells := tableCells(line); len(cells) == len(columns) && i+1 < len(lines) {
			if strings.Join(cells, "|") == strings.Join(columns, "|") {
				return i
			}
		}
	}
	return -1
}

// tableCells splits a table row into its trimmed cells (an escaped \| is no separator).
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") {
		return nil
	}
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	cells := strings.Split(strings.ReplaceAll(line, `\|`, "\x00"), "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(strings.ReplaceAll(c, "\x00", "|"))
	}
	return cells
}

// parseTerm reads one row, or says why it is no term.
func parseTerm(line int, cells []string) (Term, string) {
	if len(cells) != len(glossaryColumns) {
		return Term{}, fmt.Sprintf("a row of %d cells, want %d (%s)", len(cells), len(glossaryColumns), strings.Join(glossaryColumns, " | "))
	}
	t := Term{Line: line, English: strings.Trim(cells[0], "`*"), Chinese: strings.Trim(cells[1], "`*")}
	if t.English == "" || t.Chinese == "" {
		return Term{}, "a term needs its English and its 中文"
	}
	for _, r := range strings.Split(cells[2], "、") {
		if r = strings.TrimSpace(r); r != "" {
			t.Rejected = append(t.Rejected, r)
		}
	}
	return t, ""
}

// contradictions are terms given twice and rejected words that are a term's own word.
func (g Glossary) contradictions() []Problem {
	var problems []Problem
	english, chinese := map[string]int{}, map[string]int{}
	for _, t := range g.Terms {
		for _, c := range []struct {
			seen map[string]int
			key  string
		}{{english, strings.ToLower(t.English)}, {chinese, t.Chinese}} {
			if line, ok := c.seen[c.key]; ok {
				problems = append(problems, Problem{File: GlossaryFile, Line: t.Line, Text: fmt.Sprintf("%s is a term already (line %d): each term once", c.key, line)})
			}
			c.seen[c.key] = t.Line
		}
	}
	for _, t := range g.Terms {
		for _, r := range t.Rejected {
			if line, ok := chinese[r]; ok {
				problems = append(problems, Problem{File: GlossaryFile, Line: t.Line, Text: fmt.Sprintf("%s is rejected for %s, but it is the word of the term at line %d", r, t.English, line)})
			}
		}
	}
	return problems
}

// names says whether s, the text in a pair of brackets, is the term's English: any case, its
// plural with -s or -es, code marks aside ("Controllers" and "`controller`" name controller).
func (t Term) names(s string) bool {
	s = strings.ToLower(strings.Trim(strings.TrimSpace(s), "`"))
	e := strings.ToLower(t.English)
	return s == e || s == e+"s" || s == e+"es"
}

// hasHan says whether s holds a Han character: a term whose 中文 has none (Pod stays Pod) needs
// no English beside it.
func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}

// bracketed is a pair of brackets, full-width or not, and the text between them.
var bracketed = regexp.MustCompile(`[（(]\s*([^（）()]+?)\s*[）)]`)
