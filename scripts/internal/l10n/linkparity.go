package l10n

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// links: the same link targets, as many times each. An external URL stays as it is, fragment
// and all. A relative link may lead to the translation of its English target (Y.zh-CN.md for
// Y.md) where one exists. Fragments of relative links are not compared, since headings are
// translated and so are their anchors; instead each fragment of the translation must name a
// heading of the page it leads to.
func (p parity) links() []Problem {
	var en, zh []keyed
	for _, l := range p.en.links() {
		en = append(en, keyed{l.line, englishKey(l.target)})
	}
	var problems []Problem
	for _, l := range p.zh.links() {
		zh = append(zh, keyed{l.line, englishKey(l.target)})
		if !external(l.target) {
			problems = append(problems, p.relative(l)...)
		}
	}
	for _, k := range unmatched(en, zh) {
		problems = append(problems, p.problem(0, "no link to %s, which the English has at %s", k.key, p.at(k.line)))
	}
	for _, k := range unmatched(zh, en) {
		problems = append(problems, p.problem(k.line, "a link to %s, which the English does not have", k.key))
	}
	return problems
}

// englishKey is what a target is compared by: an external URL whole, a relative one as the
// English path it stands for, without its fragment ("this page" for a fragment alone).
func englishKey(target string) string {
	if external(target) {
		return target
	}
	p, _ := splitFragment(target)
	if p == "" {
		return "this page (#...)"
	}
	return englishTarget(p)
}

// relative checks a relative link of the translation: a translation it leads to exists, and its
// fragment names a heading there.
func (p parity) relative(l link) []Problem {
	target, frag := splitFragment(l.target)
	file := p.zh.path
	if target != "" {
		file = path.Join(path.Dir(p.zh.path), target)
	}
	if !strings.HasSuffix(file, ".md") {
		return nil // a folder or a source file: GitHub's line anchors (#L10) are not headings
	}
	d, err := p.load(file)
	switch {
	case errors.Is(err, fs.ErrNotExist) && strings.HasSuffix(target, Suffix):
		return []Problem{p.problem(l.line, "links to %s, which is not translated yet: link the English %s", target, englishTarget(target))}
	case errors.Is(err, fs.ErrNotExist):
		return []Problem{p.problem(l.line, "links to %s, which does not exist", target)}
	case err != nil:
		return []Problem{p.problem(l.line, "links to %s: %v", target, err)}
	case frag != "" && !d.anchors()[frag]:
		return []Problem{p.problem(l.line, "links to #%s, which no heading of %s has as its anchor (GitHub's: lower case, "+
			"punctuation dropped, Han kept, spaces as -)", frag, file)}
	}
	return nil
}

// load reads a file the translation links to, once.
func (p parity) load(file string) (*doc, error) {
	if d, ok := p.docs[file]; ok {
		return d, nil
	}
	if file == p.zh.path {
		return &p.zh, nil
	}
	d, err := readDoc(p.root, file)
	if err != nil {
		return nil, err
	}
	p.docs[file] = &d
	return &d, nil
}
