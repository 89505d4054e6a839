package l10n

import (
	"regexp"
	"strings"
)

// doc is a Markdown file as the checks read it. Markdown is read line by line, as GitHub renders
// it closely enough for what is compared here: no full parser is needed to find fenced code
// blocks, code spans, links and headings, and a small reader is one a maintainer can follow.
type doc struct {
	path   string   // slash-separated, relative to the workspace root: for messages
	lines  []string // the file's lines, without line ends
	fenced []bool   // whether each line belongs to a fenced code block (its fences included)
	blocks []block  // the fenced code blocks, in order
	plain  []string // the lines outside code: code blocks blank, code spans blanked with spaces
	spans  []span   // the code spans outside code blocks, in order
}

// block is a fenced code block: its first line's number, its info string ("go", "mermaid") and
// its text from the opening fence to the closing one, which is what must match byte for byte.
type block struct {
	line int
	info string
	text string
}

// span is an inline code span: the line it starts on and its content (`make check` → make check).
type span struct {
	line int
	text string
}

// fenceOpen is the opening line of a fenced code block: three or more backticks or tildes,
// indented at most as far as a list item's content, then the info string.
var fenceOpen = regexp.MustCompile("^ *(`{3,}|~{3,})\\s*([^`]*)$")

// parseDoc reads a file's lines into a doc. Line ends are LF; a CR before one is dropped.
func parseDoc(path string, data []byte) doc {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	d := doc{path: path, lines: strings.Split(text, "\n")}
	d.fenced = make([]bool, len(d.lines))
	d.plain = make([]string, len(d.lines))
	d.readBlocks()
	d.readSpans()
	return d
}

// readBlocks finds the fenced code blocks. A block without its closing fence runs to the end,
// as it does on GitHub.
func (d *doc) readBlocks() {
	for i := 0; i < len(d.lines); i++ {
		m := fenceOpen.FindStringSubmatch(d.lines[i])
		if m == nil {
			continue
		}
		end := closingFence(d.lines, i+1, m[1])
		for j := i; j <= end && j < len(d.lines); j++ {
			d.fenced[j] = true
		}
		last := min(end, len(d.lines)-1)
		d.blocks = append(d.blocks, block{line: i + 1, info: strings.TrimSpace(m[2]), text: strings.Join(d.lines[i:last+1], "\n")})
		i = end
	}
}

// closingFence is the index of the line that closes a block opened with fence: at least as many
// of the same character and nothing else. len(lines) when there is none.
func closingFence(lines []string, from int, fence string) int {
	for j := from; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
			return j
		}
	}
	return len(lines)
}

// readSpans finds the code spans of each paragraph (a code span may wrap to the next line, but
// never past a blank line or a heading) and fills plain with the text around them.
func (d *doc) readSpans() {
	start := -1 // the first line of the paragraph being read
	flush := func(end int) {
		if start >= 0 {
			d.paragraphSpans(start, end)
		}
		start = -1
	}
	for i, line := range d.lines {
		switch {
		case d.fenced[i] || strings.TrimSpace(line) == "":
			flush(i)
		case heading.MatchString(line):
			flush(i)
			start = i
			flush(i + 1)
		case start < 0:
			start = i
		}
	}
	flush(len(d.lines))
}

// paragraphSpans masks the code spans of lines[start:end] and records them.
func (d *doc) paragraphSpans(start, end int) {
	masked, found := maskCode(strings.Join(d.lines[start:end], "\n"))
	for _, s := range found {
		d.spans = append(d.spans, span{line: start + 1 + s.line, text: s.text})
	}
	copy(d.plain[start:end], strings.Split(masked, "\n"))
}

// maskCode finds the code spans of a paragraph, as CommonMark does: a run of n backticks opens
// one, the next run of exactly n closes it, and a run that is never closed is literal text. It
// returns the paragraph with each span (backticks included) replaced by spaces, line ends kept,
// and the spans' contents, each with the line (counted from 0) it starts on.
func maskCode(text string) (string, []span) {
	out := []byte(text)
	var found []span
	for i := 0; i < len(text); {
		if text[i] == '\\' && i+1 < len(text) && text[i+1] == '`' {
			i += 2 // an escaped backtick opens nothing
			continue
		}
		if text[i] != '`' {
			i++
			continue
		}
		n := backticks(text, i)
		closeAt := closingRun(text, i+n, n)
		if closeAt < 0 {
			i += n
			continue
		}
		found = append(found, span{line: strings.Count(text[:i], "\n"), text: spanContent(text[i+n : closeAt])})
		for j := i; j < closeAt+n; j++ {
			if out[j] != '\n' {
				out[j] = ' '
			}
		}
		i = closeAt + n
	}
	return string(out), found
}

// backticks is the length of the run of backticks at text[i].
func backticks(text string, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	return n
}

// closingRun is the index of the next run of exactly n backticks from i, or -1.
func closingRun(text string, i, n int) int {
	for i < len(text) {
		if text[i] != '`' {
			i++
			continue
		}
		run := backticks(text, i)
		if run == n {
			return i
		}
		i += run
	}
	return -1
}

// spanContent is a code span's text as rendered: a line end, with the indent of the line after
// it (a paragraph's or a list item's continuation, which CommonMark strips), becomes one space;
// and one space on each side is dropped when both are there (CommonMark's rule, which lets a
// span start with a backtick).
func spanContent(s string) string {
	s = lineEndAndIndent.ReplaceAllString(s, " ")
	if len(s) >= 2 && s[0] == ' ' && s[len(s)-1] == ' ' && strings.TrimSpace(s) != "" {
		s = s[1 : len(s)-1]
	}
	return s
}

// lineEndAndIndent is a line end inside a span and the next line's leading blanks.
var lineEndAndIndent = regexp.MustCompile(`\n[ \t]*`)

// heading is an ATX heading line: up to three spaces, one to six #, then its text.
var heading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)

// headingLine is a heading: its line number and its text as written.
type headingLine struct {
	line int
	text string
}

// headings are the document's headings outside code blocks, in order.
func (d doc) headings() []headingLine {
	var list []headingLine
	for i, line := range d.lines {
		if m := heading.FindStringSubmatch(line); m != nil && !d.fenced[i] {
			list = append(list, headingLine{line: i + 1, text: m[2]})
		}
	}
	return list
}

// lineAt is the number of the line that byte offset off of text falls on, counting from first.
func lineAt(text string, off, first int) int {
	return first + strings.Count(text[:off], "\n")
}
