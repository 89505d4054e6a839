// Package archdoc keeps docs/architecture.md true to the code: its mermaid diagram's solid arrows
// must be exactly the imports between the packages its nodes stand for. A legend table under
// the diagram maps each node to its packages; a node that is no package (make, a process the
// tool starts) is drawn with dotted arrows, which no import backs and nothing checks.
package archdoc

import (
	"fmt"
	"regexp"
	"strings"
)

// Arrow is a solid arrow of the diagram, from one node id to another: "From imports To".
type Arrow struct{ From, To string }

func (a Arrow) String() string { return a.From + " --> " + a.To }

// Diagram is what the doc says: its solid arrows, and each node's package patterns (import
// paths; a trailing "/..." takes the packages below too). A node with no pattern is no package.
type Diagram struct {
	Arrows   []Arrow
	Packages map[string][]string
}

var (
	mermaidBlock = regexp.MustCompile("(?s)```mermaid\n(.*?)```")
	nodeLabel    = regexp.MustCompile(`(\w+)\s*\["[^"]*"\]`) // id["label"] -> id
	edgeLabel    = regexp.MustCompile(`\|"?[^|]*"?\|`)       // -->|"label"| -> -->
	arrowToken   = regexp.MustCompile(`\s*(-->|-\.->)\s*`)
	legendRow    = regexp.MustCompile("^\\|\\s*`(\\w+)`\\s*\\|(.*)\\|\\s*$")
	inBackticks  = regexp.MustCompile("`([^`]+)`")
	// Lines that draw no node or arrow: comments, the header, grouping and styling.
	notAnEdge = regexp.MustCompile(`^(%%|(flowchart|graph|subgraph|end|direction|classDef|class|style|linkStyle|click)\b)`)
)

// Parse reads the doc's first mermaid block and the legend rows (| `node` | `package` ... |) after
// it. Every node drawn needs a row, and every row a node.
func Parse(doc string) (Diagram, error) {
	m := mermaidBlock.FindStringSubmatchIndex(doc)
	if m == nil {
		return Diagram{}, fmt.Errorf("no ```mermaid block")
	}
	d := Diagram{Packages: map[string][]string{}}
	nodes := map[string]bool{}
	for _, line := range strings.Split(doc[m[2]:m[3]], "\n") {
		d.Arrows = append(d.Arrows, parseLine(line, nodes)...)
	}
	for _, line := range strings.Split(doc[m[1]:], "\n") {
		if row := legendRow.FindStringSubmatch(strings.TrimSpace(line)); row != nil {
			d.Packages[row[1]] = nil
			for _, p := range inBackticks.FindAllStringSubmatch(row[2], -1) {
				d.Packages[row[1]] = append(d.Packages[row[1]], p[1])
			}
		}
	}
	for n := range nodes {
		if _, ok := d.Packages[n]; !ok {
			return Diagram{}, fmt.Errorf("node %s is drawn but has no row in the legend under the diagram: add | `%s` | `its/import/path` |", n, n)
		}
	}
	for n := range d.Packages {
		if !nodes[n] {
			return Diagram{}, fmt.Errorf("the legend names node %s, which the diagram does not draw", n)
		}
	}
	return d, nil
}

// parseLine records the nodes of one diagram line and returns its solid arrows. A line is a
// chain of groups joined by arrows ("a & b --> c -.-> d"): each node of a group points to each
// node of the next.
func parseLine(line string, nodes map[string]bool) []Arrow {
	line = strings.TrimSpace(line)
	if line == "" || notAnEdge.MatchString(line) {
		return nil
	}
	line = edgeLabel.ReplaceAllString(nodeLabel.ReplaceAllString(line, "$1"), "")
	groups := arrowToken.Split(line, -1)
	kinds := arrowToken.FindAllStringSubmatch(line, -1)
	var arrows []Arrow
	for i, group := range groups {
		for _, from := range splitGroup(group) {
			nodes[from] = true
			if i == len(kinds) || kinds[i][1] != "-->" {
				continue
			}
			for _, to := range splitGroup(groups[i+1]) {
				arrows = append(arrows, Arrow{from, to})
			}
		}
	}
	return arrows
}

func splitGroup(group string) []string {
	var ids []string
	for _, id := range strings.Split(group, "&") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}
