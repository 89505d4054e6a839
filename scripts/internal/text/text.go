// Package text has the two line helpers the tools use to quote program output in messages.
package text

import "strings"

// FirstLine is the first non-empty line of s, trimmed; "" if there is none.
func FirstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}

// Tail is the last n lines of s, each indented by indent, for quoting a log in an error.
func Tail(s string, n int, indent string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return indent + strings.Join(lines, "\n"+indent)
}
