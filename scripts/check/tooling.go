package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// toolingChecks run the tooling's own tests: the cluster tool's lifecycle, failure modes and kind
// detection (on a scratch cluster, never the learner's), and the version pins.
func (t *tester) toolingChecks() []check {
	return []check{{"tooling: cluster tool and version pins", t.toolingTests}}
}

func (t *tester) toolingTests(ctx context.Context) (string, error) {
	out, err := command(ctx, filepath.Join(t.root, "scripts"), "go", "test", "-count=1", "./...")
	logPath := filepath.Join(t.scratch, "logs", "tooling.log")
	_ = os.MkdirAll(filepath.Dir(logPath), 0o755)
	_ = os.WriteFile(logPath, []byte(out), 0o644)
	if err != nil {
		return "", fmt.Errorf("go test ./... in scripts failed; full log %s:\n%s", logPath, lastLines(out, 30))
	}
	return fmt.Sprintf("%d packages ok", strings.Count(out, "\nok ")+boolInt(strings.HasPrefix(out, "ok "))), nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
