package l10n

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// A link's #fragment names a heading by its anchor, which GitHub makes from the heading's text
// (its github-slugger): the rendered text in lower case, every character dropped that is not a
// letter, a digit, a mark, "-", "_" or a space, and each space turned into "-". Han characters
// are letters, so they stay: "### 练习 1：`ParseGVK`（parse.go）" is #练习-1parsegvkparsego (the
// full-width colon and brackets are punctuation and go). A second heading with the same anchor
// gets "-1", a third "-2".

var (
	inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`) // rendered as its text
	htmlTag    = regexp.MustCompile(`<[^>]+>`)                 // rendered as nothing
	// htmlAnchor is an anchor a page sets by hand: <a id="x"> or <a name="x">.
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
)

// slug is GitHub's anchor for a heading's text as written.
func slug(text string) string {
	text = inlineLink.ReplaceAllString(text, "$1")
	text = htmlTag.ReplaceAllString(text, "")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors are the fragments that lead somewhere in d: its headings' anchors, numbered as GitHub
// numbers repeats, and the anchors it sets by hand.
func (d doc) anchors() map[string]bool {
	taken := map[string]int{} // each anchor given so far, and for a heading's own slug its repeats
	for _, h := range d.headings() {
		original := slug(h.text)
		anchor := original
		for _, ok := taken[anchor]; ok; _, ok = taken[anchor] {
			taken[original]++
			anchor = original + "-" + strconv.Itoa(taken[original])
		}
		taken[anchor] = 0
	}
	found := map[string]bool{}
	for a := range taken {
		found[a] = true
	}
	for i, line := range d.lines {
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			if !d.fenced[i] {
				found[m[1]] = true
			}
		}
	}
	return found
}
