package l10n

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// parity compares a translation with its English: what a translator must keep as it is.
type parity struct {
	root   string
	en, zh doc
	docs   map[string]*doc // the files the translation's fragments point into, read once
}

// Parity lists where a translation's structure differs from its English's: code blocks, links,
// make commands, exercises and hint levels.
func Parity(root string, t Translation) ([]Problem, error) {
	en, err := readDoc(root, t.Source)
	if err != nil {
		return nil, err
	}
	zh, err := readDoc(root, t.Path)
	if err != nil {
		return nil, err
	}
	p := parity{root: root, en: en, zh: zh, docs: map[string]*doc{}}
	var problems []Problem
	for _, compare := range []func() []Problem{p.blocks, p.links, p.makeCommands, p.exercises, p.hints} {
		problems = append(problems, compare()...)
	}
	return problems, nil
}

// readDoc reads and parses a file given from the root.
func readDoc(root, rel string) (doc, error) {
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return doc{}, err
	}
	return parseDoc(rel, data), nil
}

// problem is a problem of the translation at one of its lines (0: the file as a whole).
func (p parity) problem(line int, format string, args ...any) Problem {
	return Problem{File: p.zh.path, Line: line, Text: fmt.Sprintf(format, args...)}
}

// at names a line of the English file.
func (p parity) at(line int) string { return fmt.Sprintf("%s:%d", path.Base(p.en.path), line) }

// keyed is something compared by key, with the line it is on.
type keyed struct {
	line int
	key  string
}

// unmatched lists the items of want that have no equal in have, each as often as it lacks one.
func unmatched(want, have []keyed) []keyed {
	left := map[string]int{}
	for _, h := range have {
		left[h.key]++
	}
	var gone []keyed
	for _, w := range want {
		if left[w.key] > 0 {
			left[w.key]--
		} else {
			gone = append(gone, w)
		}
	}
	return gone
}

// makeCommands: the same `make ...` commands in code spans (those in code blocks are compared
// with the blocks). A learner types what the text shows: a translated command is a wrong one.
func (p parity) makeCommands() []Problem {
	var problems []Problem
	en, zh := spanCommands(p.en), spanCommands(p.zh)
	for _, k := range unmatched(en, zh) {
		problems = append(problems, p.problem(0, "`%s` is missing (the English has it at %s)", k.key, p.at(k.line)))
	}
	for _, k := range unmatched(zh, en) {
		problems = append(problems, p.problem(k.line, "`%s` is not in the English", k.key))
	}
	return problems
}

func spanCommands(d doc) []keyed {
	var list []keyed
	for _, s := range d.spans {
		if s.text == "make" || strings.HasPrefix(s.text, "make ") {
			list = append(list, keyed{s.line, s.text})
		}
	}
	return list
}

// exercises: the same exercises, with the same numbers in the same order, and each title with
// the same code spans and file names.
func (p parity) exercises() []Problem {
	en, zh := p.en.exercises(english), p.zh.exercises(chinese)
	var problems []Problem
	if numbers(en) != numbers(zh) {
		problems = append(problems, p.problem(0, "its exercises are [%s] (### 练习 N：title), the English's [%s] (### Exercise N: title)", numbers(zh), numbers(en)))
	}
	for _, z := range zh {
		i := slices.IndexFunc(en, func(e exercise) bool { return e.number == z.number })
		if i < 0 {
			continue
		}
		e := en[i]
		if !slices.Equal(e.spans, z.spans) {
			problems = append(problems, p.problem(z.line, "练习 %d's title has the code spans %q, the English's %q (%s)", z.number, z.spans, e.spans, p.at(e.line)))
		}
		if !slices.Equal(e.files, z.files) {
			problems = append(problems, p.problem(z.line, "练习 %d's title names the files %q, the English's %q (%s)", z.number, z.files, e.files, p.at(e.line)))
		}
	}
	return problems
}

func numbers(list []exercise) string {
	var s []string
	for _, e := range list {
		s = append(s, fmt.Sprint(e.number))
	}
	return strings.Join(s, " ")
}

// hints: the same exercises' sections in a hints file, each with as many hint levels: make hint
// counts them, and a learner who reads Chinese must not get one level fewer.
func (p parity) hints() []Problem {
	en, zh := p.en.hintSections(english), p.zh.hintSections(chinese)
	var problems []Problem
	for _, e := range en {
		i := slices.IndexFunc(zh, func(z hintSection) bool { return z.number == e.number })
		switch {
		case i < 0:
			problems = append(problems, p.problem(0, "no \"## 练习 %d\" section: the English has the hints of exercise %d at %s", e.number, e.number, p.at(e.line)))
		case zh[i].levels != e.levels:
			problems = append(problems, p.problem(zh[i].line, "练习 %d has %d hint levels (### 提示 K：title), the English %d (%s)", e.number, zh[i].levels, e.levels, p.at(e.line)))
		}
	}
	for _, z := range zh {
		if !slices.ContainsFunc(en, func(e hintSection) bool { return e.number == z.number }) {
			problems = append(problems, p.problem(z.line, "hints of 练习 %d, which the English does not have", z.number))
		}
	}
	return problems
}
