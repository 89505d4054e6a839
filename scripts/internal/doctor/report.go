package doctor

import (
	"encoding/json"
	"fmt"
	"io"
)

// Print writes one line per check, the fix indented under each that is not ok, and the verdict.
func (r Report) Print(out io.Writer) {
	marks := map[Status]string{OK: "ok  ", Warn: "warn", Fail: "FAIL"}
	for _, c := range r.Checks {
		fmt.Fprintf(out, "  %s  %-21s %s\n", marks[c.Status], c.Name, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(out, "        %-21s fix: %s\n", "", c.Fix)
		}
	}
	fmt.Fprintln(out, r.Verdict())
}

// Verdict is the last line: ready, or how many checks fail.
func (r Report) Verdict() string {
	if r.Ready {
		return "Ready for the workshop."
	}
	n := 0
	for _, c := range r.Checks {
		if c.Status == Fail {
			n++
		}
	}
	return fmt.Sprintf("Not ready: %d check(s) failed; apply the fixes above, then run make doctor again.", n)
}

// PrintJSON writes the report for tools.
func (r Report) PrintJSON(out io.Writer) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
