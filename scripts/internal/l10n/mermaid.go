package l10n

import (
	"regexp"
	"slices"
	"strings"
)

// A Mermaid diagram is translated: its labels change, its structure must not. The structure is
// the diagram's kind and direction ("flowchart LR"), its node ids and its edges (which ids an
// arrow joins, and which arrow: a solid one is an import, a dotted one a program run). The labels
// are dropped before the statements are read, so no label can pass for an id.

// shape is a diagram's structure, each list sorted so the order of statements does not count.
type shape struct {
	kind  string
	ids   []string
	edges []string // "a --> b"
}

var (
	quoted    = regexp.MustCompile(`"[^"]*"`)   // a label in quotes
	edgeLabel = regexp.MustCompile(`\|[^|]*\|`) // -->|label|
	// textOnArrow is a label written on the arrow: a -- label --> b, a -. label .-> b.
	textOnArrow = regexp.MustCompile(`(^|\s)(?:--|==|-\.)\s+[^-=.>|][^>|]*?\s+(-->|==>|\.->|---)`)
	// nodeLabel is an innermost [..], (..) or {..}: a node's shape and unquoted label.
	nodeLabel   = regexp.MustCompile(`[\[({][^\[\](){}]*[\])}]`)
	classSuffix = regexp.MustCompile(`:::[\w-]+`) // a:::className
	// arrow is a link between nodes: -->, ---, -.->, ==>, <-->, ~~~.
	arrow = regexp.MustCompile(`<?(?:-{2,}>?|-\.+->?|={2,}>?|~{3,})`)
	// notStructure starts a statement that only styles, comments or closes.
	notStructure = regexp.MustCompile(`^(%%|style\b|classDef\b|class\b|linkStyle\b|click\b|end$|direction\b)`)
)

// parseMermaid reads the structure of a diagram's text (the lines between its fences): a
// flowchart's, or a sequence diagram's.
func parseMermaid(body string) shape {
	var s shape
	for _, line := range strings.Split(body, "\n") {
		switch line = strings.TrimSpace(line); {
		case s.kind == "" && !strings.HasPrefix(line, "%%"):
			s.kind = strings.Join(strings.Fields(line), " ")
		case s.kind == "sequenceDiagram":
			s.readMessage(line)
		default:
			for _, statement := range strings.Split(stripLabels(line), ";") {
				s.read(strings.TrimSpace(statement))
			}
		}
	}
	slices.Sort(s.ids)
	s.ids = slices.Compact(s.ids)
	slices.Sort(s.edges)
	return s
}

// message is a sequence diagram's message before its text: C->>A, M-->>A, A-)B.
var message = regexp.MustCompile(`^([^\s>-]+)\s*(--?(?:>>|>|x|\)))[+-]?\s*([^\s:]+)$`)

// readMessage adds one line of a sequence diagram: a participant's id (its alias is a label),
// or a message's sender, arrow and receiver (its text is a label). Notes and blocks (loop, alt)
// are all label.
func (s *shape) readMessage(line string) {
	before, _, _ := strings.Cut(line, ":")
	fields := strings.Fields(before)
	switch {
	case len(fields) > 1 && (fields[0] == "participant" || fields[0] == "actor"):
		s.ids = append(s.ids, fields[1])
	case message.MatchString(strings.TrimSpace(before)):
		m := message.FindStringSubmatch(strings.TrimSpace(before))
		s.ids = append(s.ids, m[1], m[3])
		s.edges = append(s.edges, m[1]+" "+m[2]+" "+m[3])
	}
}

// stripLabels removes every label from a line of a diagram, leaving ids and arrows.
func stripLabels(line string) string {
	line = quoted.ReplaceAllString(line, "")
	line = edgeLabel.ReplaceAllString(line, "")
	line = textOnArrow.ReplaceAllStringFunc(line, func(m string) string {
		closing := textOnArrow.FindStringSubmatch(m)[2]
		if closing == ".->" {
			closing = "-.->" // a -. label .-> b is a dotted arrow
		}
		return " " + closing
	})
	for prev := ""; prev != line; {
		prev, line = line, nodeLabel.ReplaceAllString(line, "")
	}
	return classSuffix.ReplaceAllString(line, "")
}

// read adds one statement: the diagram's kind, a subgraph's id, or nodes joined by arrows
// ("a --> b & c" is two edges).
func (s *shape) read(statement string) {
	switch {
	case statement == "" || notStructure.MatchString(statement):
		return
	case strings.HasPrefix(statement, "subgraph "):
		s.ids = append(s.ids, strings.Fields(statement)[1])
		return
	}
	arrows := arrow.FindAllString(statement, -1)
	groups := arrow.Split(statement, -1)
	for i, g := range groups {
		ids := nodeIDs(g)
		s.ids = append(s.ids, ids...)
		if i == 0 {
			continue
		}
		for _, from := range nodeIDs(groups[i-1]) {
			for _, to := range ids {
				s.edges = append(s.edges, from+" "+arrows[i-1]+" "+to)
			}
		}
	}
}

// nodeIDs are the ids of a group of nodes joined by "&".
func nodeIDs(group string) []string {
	var ids []string
	for _, id := range strings.Split(group, "&") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// missing lists what want has and have lacks, each as often as it lacks it.
func missing(want, have []string) []string {
	left := map[string]int{}
	for _, h := range have {
		left[h]++
	}
	var gone []string
	for _, w := range want {
		if left[w] > 0 {
			left[w]--
		} else {
			gone = append(gone, w)
		}
	}
	return gone
}
