package l10n

import (
	"net/url"
	"path"
	"regexp"
	"strings"
)

// link is a link's target as written, and the line it is on.
type link struct {
	line   int
	target string
}

var (
	// linkTarget ends an inline link or image: ](target) or ](target "title"). Finding the end
	// alone is enough, and copes with link texts that hold brackets or code.
	linkTarget = regexp.MustCompile(`\]\(\s*<?([^()\s<>]*)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)`)
	// referenceDef is a reference link's definition: [name]: target.
	referenceDef = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?`)
	// autolink is <https://...>.
	autolink = regexp.MustCompile(`<((?:https?|mailto):[^\s>]+)>`)
)

// links are the targets of d's links outside code, in order.
func (d doc) links() []link {
	var found []link
	text := strings.Join(d.plain, "\n")
	for _, re := range []*regexp.Regexp{linkTarget, autolink} {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			found = append(found, link{line: 1 + strings.Count(text[:m[0]], "\n"), target: text[m[2]:m[3]]})
		}
	}
	for i, line := range d.plain {
		if m := referenceDef.FindStringSubmatch(line); m != nil {
			found = append(found, link{line: i + 1, target: m[1]})
		}
	}
	return found
}

// external says whether a target leaves the workspace (a URL with a scheme).
func external(target string) bool {
	return strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:")
}

// splitFragment cuts a relative target into its path ("" for the page itself) and its fragment,
// percent-decoded (GitHub writes a Han anchor as %E7%BB%83... in an address bar).
func splitFragment(target string) (string, string) {
	p, frag, _ := strings.Cut(target, "#")
	if decoded, err := url.PathUnescape(frag); err == nil {
		frag = decoded
	}
	if p != "" {
		p = path.Clean(p)
	}
	return p, frag
}

// englishTarget is what a translation's relative path stands for in its English: Y.zh-CN.md
// is Y.md, the English it translates.
func englishTarget(p string) string {
	if strings.HasSuffix(p, Suffix) {
		return strings.TrimSuffix(p, Suffix) + ".md"
	}
	return p
}
