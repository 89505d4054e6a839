package l10n

import (
	"fmt"
	"strings"
)

// blocks: the same code blocks in the same order, byte for byte (code, commands and their
// output stay as they are), except Mermaid diagrams, whose labels are translated and whose
// structure (shape) must stay. The two sequences are aligned, so that one missing block is
// reported as missing, not as every later block differing.
func (p parity) blocks() []Problem {
	en, zh := p.en.blocks, p.zh.blocks
	var problems []Problem
	prevEn, prevZh := -1, -1
	for _, pair := range append(align(blockKeys(en), blockKeys(zh)), [2]int{len(en), len(zh)}) {
		problems = append(problems, p.gap(en[prevEn+1:pair[0]], zh[prevZh+1:pair[1]])...)
		prevEn, prevZh = pair[0], pair[1]
	}
	return problems
}

// gap reports the blocks between two aligned ones: side by side, a block that differs from the
// English's; left over, a block missing or one the English does not have.
func (p parity) gap(en, zh []block) []Problem {
	var problems []Problem
	for i := 0; i < max(len(en), len(zh)); i++ {
		switch {
		case i >= len(zh):
			problems = append(problems, p.problem(0, "the English's code block at %s is missing here: %s", p.at(en[i].line), firstLine(en[i])))
		case i >= len(en):
			problems = append(problems, p.problem(zh[i].line, "a code block the English does not have: %s", firstLine(zh[i])))
		default:
			problems = append(problems, p.problem(zh[i].line, "%s", blockDifference(en[i], zh[i], p.at(en[i].line))))
		}
	}
	return problems
}

// blockDifference says how a block differs from the English's at the same place.
func blockDifference(en, zh block, where string) string {
	if en.info == "mermaid" && zh.info == "mermaid" {
		return fmt.Sprintf("the Mermaid diagram's structure differs from the English's at %s (labels may change, ids and edges not): %s",
			where, shapeDifference(parseMermaid(en.body()), parseMermaid(zh.body())))
	}
	a, b := strings.Split(en.text, "\n"), strings.Split(zh.text, "\n")
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("code block differs from the English's at %s, byte for byte, in its line %d: English %q, here %q", where, i+1, a[i], b[i])
		}
	}
	return fmt.Sprintf("code block differs from the English's at %s: %d lines there, %d here", where, len(a), len(b))
}

// shapeDifference lists the ids and edges one diagram has and the other lacks.
func shapeDifference(en, zh shape) string {
	var parts []string
	if en.kind != zh.kind {
		parts = append(parts, fmt.Sprintf("it is %q, the English %q", zh.kind, en.kind))
	}
	for _, d := range []struct {
		what      string
		want, got []string
	}{
		{"node ids missing", en.ids, zh.ids}, {"node ids not in the English", zh.ids, en.ids},
		{"edges missing", en.edges, zh.edges}, {"edges not in the English", zh.edges, en.edges},
	} {
		if gone := missing(d.want, d.got); len(gone) > 0 {
			parts = append(parts, d.what+": "+strings.Join(gone, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// blockKeys are what aligns two blocks: their text, or a diagram's structure.
func blockKeys(blocks []block) []string {
	keys := make([]string, len(blocks))
	for i, b := range blocks {
		keys[i] = b.text
		if b.info == "mermaid" {
			s := parseMermaid(b.body())
			keys[i] = fmt.Sprintf("mermaid %q %q %q", s.kind, s.ids, s.edges)
		}
	}
	return keys
}

// firstLine is a block's fence and its first line of content, for a message.
func firstLine(b block) string {
	lines := strings.SplitN(b.text, "\n", 3)
	if len(lines) > 1 {
		return fmt.Sprintf("%q", lines[0]+" "+strings.TrimSpace(lines[1]))
	}
	return fmt.Sprintf("%q", lines[0])
}

// align is a longest common subsequence of a and b: the index pairs of the elements kept, in
// order. Documents hold tens of blocks, so the quadratic table costs nothing.
func align(a, b []string) [][2]int {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var pairs [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			pairs = append(pairs, [2]int{i, j})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return pairs
}

// body is a block's text between its fences.
func (b block) body() string {
	lines := strings.Split(b.text, "\n")[1:]
	if n := len(lines); n > 0 && fenceOpen.MatchString(lines[n-1]) {
		lines = lines[:n-1]
	}
	return strings.Join(lines, "\n")
}
