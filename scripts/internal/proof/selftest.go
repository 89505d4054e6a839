// Package proof is the maintainers' side of the workshop: make test proves every lesson (its solution
// passes, its untouched starter fails every exercise, every kept wrong solution is caught) and the
// tooling; make test-wrong proves one lesson's wrong solutions; make mistakes writes the
// instructors' list of mistakes from them.
package proof

import (
	"context"
	"fmt"
	"strings"
	"time"

	"workshop.local/scripts/internal/lessons"
)

// check is one line of `make test`'s report. run returns a short detail on success.
type check struct {
	name string
	run  func(context.Context) (string, error)
}

// Test is make test: it proves the workshop: static checks, the tooling's own tests, and for every lesson
// that its solution passes all specs and its untouched starter fails every exercise.
func Test(ctx context.Context, root, scratch, only string) (bool, error) {
	all, err := lessons.Discover(root)
	if err != nil {
		return false, err
	}
	if only != "" {
		lesson, err := lessons.Find(root, only)
		if err != nil {
			return false, err
		}
		all = []lessons.Lesson{lesson}
	}
	t := &tester{root: root, scratch: scratch, lessons: all}
	checks := t.staticChecks()
	checks = append(checks, t.toolingChecks()...)
	for _, l := range all {
		checks = append(checks, t.lessonChecks(l)...)
	}
	passed, failed := 0, 0
	for _, c := range checks {
		start := time.Now()
		detail, err := c.run(ctx)
		took := time.Since(start).Round(100 * time.Millisecond)
		if err != nil {
			failed++
			fmt.Printf("FAIL  %s (%s)\n%s\n", c.name, took, indent(err.Error()))
			continue
		}
		passed++
		fmt.Printf("PASS  %s: %s (%s)\n", c.name, detail, took)
	}
	t.printWrongSummary()
	fmt.Printf("\n%d passed, %d failed\n", passed, failed)
	return failed == 0, nil
}

// tester holds what the checks share.
type tester struct {
	root, scratch string
	lessons       []lessons.Lesson

	// The wrong solutions proven so far, for the summary line.
	wrongTotal, wrongCaught int
	wrongMissed             []string
}

func indent(s string) string {
	return "      " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      ")
}
