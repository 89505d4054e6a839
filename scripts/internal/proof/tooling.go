package proof

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"workshop.local/scripts/internal/text"
)

// toolingChecks run the tooling's own tests: the cluster tool's lifecycle, failure modes and kind
// detection (on a scratch cluster, never the learner's), and the version pins.
func (t *tester) toolingChecks() []check {
	return []check{
		{"tooling: cluster tool, check runner and version pins", t.goTest("scripts")},
		{"harness: foreign contexts refused, no-cluster message, panics and hangs contained", t.goTest("lessons/internal")},
		{"lessons' support packages: their own unit tests (lesson 12's webhook address and certificate for kind)", t.lessonUnitTests},
	}
}

// goTest runs a module's own Go tests, logging their output under .cache/check/logs.
func (t *tester) goTest(module string) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		// 20 minutes per package, not go test's 10: the classroom package's kit proof makes a kit,
		// installs it into an offline clone and checks a lesson there, several minutes on 2 cores.
		out, err := command(ctx, filepath.Join(t.root, module), "go", "test", "-count=1", "-timeout=20m", "./...")
		logPath := filepath.Join(t.scratch, "logs", strings.ReplaceAll(module, "/", "-")+".log")
		_ = os.MkdirAll(filepath.Dir(logPath), 0o755)
		_ = os.WriteFile(logPath, []byte(out), 0o644)
		if err != nil {
			return "", fmt.Errorf("go test ./... in %s failed; full log %s:\n%s", module, logPath, goTestFailures(out, 40))
		}
		return summarizeGoTest(out), nil
	}
}

// failureLine starts what go test and Ginkgo print about a failure: a failed package or test, a
// failed, timed-out or panicking spec, go test's timeout panic and the tests it was running.
var failureLine = regexp.MustCompile(`^(FAIL|--- FAIL|panic: |\s*running tests:|\s*\[(FAIL|TIMEDOUT|PANICKED|INTERRUPTED)\])`)

// goTestFailures is the part of go test's output that says what failed: each failure line and
// the few lines after it, at most max lines. A timed-out test ends in a dump of every goroutine,
// whose tail names nothing; the lines before it do. Without such lines, the output's tail.
func goTestFailures(out string, max int) string {
	const after = 6
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	var picked []string
	until := -1 // the last line to keep after a failure line
	for i, line := range lines {
		if failureLine.MatchString(line) {
			until = i + after
		}
		if i <= until {
			picked = append(picked, line)
		}
	}
	if len(picked) == 0 {
		return text.Tail(out, max, "")
	}
	if len(picked) > max {
		picked = append(picked[:max], "[...]")
	}
	return strings.Join(picked, "\n")
}

// summarizeGoTest counts the packages go test reported ok.
func summarizeGoTest(out string) string {
	ok := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "ok ") {
			ok++
		}
	}
	if ok == 1 {
		return "1 package ok"
	}
	return fmt.Sprintf("%d packages ok", ok)
}
