package l10n

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The glossary's three rules for a translation. Each reads the translation's words: its prose
// with code blocks and code spans left out (code is never translated), and, for the first two,
// the labels of its Mermaid diagrams, which are. A word inside a longer term's word belongs to
// that term (资源 in 定制资源 is no use of 资源), and so is a word inside one of the glossary's
// ordinary words (组 in 组件).

// Check lists where a translation breaks the glossary: a rejected word, a term's English in
// brackets after another word, and, in a lesson's README, a term's first use without its English.
func (g Glossary) Check(t Translation, root string) ([]Problem, error) {
	d, err := readDoc(root, t.Path)
	if err != nil {
		return nil, err
	}
	words := d.words(true)
	problems := append(g.rejected(d.path, words), g.brackets(d.path, words)...)
	if t.Lesson() != "" && strings.HasSuffix(t.Path, "/README"+Suffix) {
		problems = append(problems, g.firstUses(d.path, d.words(false))...)
	}
	return problems, nil
}

// words is d's translated text as one string, line ends kept so that offsets give lines: code,
// the header line and link targets blanked (an anchor such as #调谐 is no use of a word), and
// the Mermaid diagrams' lines kept when withDiagrams.
func (d doc) words(withDiagrams bool) string {
	lines := append([]string(nil), d.plain...)
	if len(lines) > 0 && header.MatchString(lines[0]) {
		lines[0] = ""
	}
	text := []byte(strings.Join(lines, "\n"))
	for _, re := range []*regexp.Regexp{linkTarget, autolink} {
		for _, m := range re.FindAllSubmatchIndex(text, -1) {
			copy(text[m[2]:m[3]], strings.Repeat(" ", m[3]-m[2]))
		}
	}
	lines = strings.Split(string(text), "\n")
	for _, b := range d.blocks {
		if withDiagrams && b.info == "mermaid" {
			n := strings.Count(b.text, "\n") + 1
			copy(lines[b.line-1:], d.lines[b.line-1:b.line-1+n])
		}
	}
	return strings.Join(lines, "\n")
}

// uses are the offsets in text where word is used on its own, not inside a longer term's word.
func (g Glossary) uses(text, word string) []int {
	var found []int
	for from := 0; ; {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return found
		}
		at := from + i
		if !g.covered(text, at, len(word)) {
			found = append(found, at)
		}
		from = at + len(word)
	}
}

// covered says whether text[at:at+n] lies inside a use of a longer term's word, or of an
// ordinary word that holds it (组件 holds 组).
func (g Glossary) covered(text string, at, n int) bool {
	words := slices.Clone(g.Ordinary)
	for _, t := range g.Terms {
		words = append(words, t.Chinese)
	}
	for _, w := range words {
		if len(w) <= n {
			continue
		}
		for start := max(0, at+n-len(w)); start <= at && start+len(w) <= len(text); start++ {
			if text[start:start+len(w)] == w {
				return true
			}
		}
	}
	return false
}

// rejected: a word the glossary rejects, anywhere in a translation.
func (g Glossary) rejected(file, text string) []Problem {
	var problems []Problem
	for _, t := range g.Terms {
		for _, r := range t.Rejected {
			for _, at := range g.uses(text, r) {
				problems = append(problems, Problem{File: file, Line: lineAt(text, at, 1),
					Text: fmt.Sprintf("%s for %s: the glossary's word is %s, not %s (%s:%d)", r, t.English, t.Chinese, r, GlossaryFile, t.Line)})
			}
		}
	}
	return problems
}

// brackets: a Han word followed by a term's English in brackets must be that term's word:
// 协调（reconcile） is a term translated another way.
func (g Glossary) brackets(file, text string) []Problem {
	var problems []Problem
	for _, m := range bracketed.FindAllStringSubmatchIndex(text, -1) {
		before := strings.TrimRightFunc(text[:m[0]], unicode.IsSpace)
		word := hanSuffix(before)
		if word == "" {
			continue
		}
		for _, t := range g.Terms {
			if t.names(text[m[2]:m[3]]) && !strings.HasSuffix(before, t.Chinese) {
				problems = append(problems, Problem{File: file, Line: lineAt(text, m[0], 1),
					Text: fmt.Sprintf("%s%s: the glossary's word for %s is %s (%s:%d)", word, text[m[0]:m[1]], t.English, t.Chinese, GlossaryFile, t.Line)})
			}
		}
	}
	return problems
}

// hanSuffix is the run of Han characters s ends with ("" if it ends otherwise).
func hanSuffix(s string) string {
	i := len(s)
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if !unicode.Is(unicode.Han, r) {
			break
		}
		i -= n
	}
	return s[i:]
}

// englishAfter is a term's English in brackets, right after a word (spaces and a line end allowed).
var englishAfter = regexp.MustCompile(`^\s*[（(]\s*([^（）()]+?)\s*[）)]`)

// firstUses: in a lesson's README, the first use of each term's word is followed by its English
// in brackets, 调谐（reconcile）, so that a learner can match it to the English of the APIs,
// the docs and the specs' messages.
func (g Glossary) firstUses(file, text string) []Problem {
	var problems []Problem
	for _, t := range g.Terms {
		if !hasHan(t.Chinese) {
			continue
		}
		uses := g.uses(text, t.Chinese)
		if len(uses) == 0 {
			continue
		}
		after := text[uses[0]+len(t.Chinese):]
		if m := englishAfter.FindStringSubmatch(after); m == nil || !t.names(m[1]) {
			problems = append(problems, Problem{File: file, Line: lineAt(text, uses[0], 1),
				Text: fmt.Sprintf("the first use of %s: follow it with its English in brackets, %s（%s） (%s:%d)", t.Chinese, t.Chinese, t.English, GlossaryFile, t.Line)})
		}
	}
	return problems
}
