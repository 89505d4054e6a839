package proof

import (
	"strings"
	"testing"
)

// A timed-out Ginkgo suite ends in a goroutine dump: the excerpt must keep the lines that name
// the stuck spec and the test, not the dump's tail.
func TestGoTestFailuresKeepsWhatFailed(t *testing.T) {
	out := strings.Join([]string{
		"ok  \tworkshop.local/scripts/internal/board\t9.6s",
		"[TIMEDOUT] the Makefile in a folder whose path has a space [It] works",
		"  at cluster_makefile_test.go:38",
		"panic: test timed out after 20m0s",
		"\trunning tests:",
		"\t\tTestClusterTool (20m0s)",
		"",
		"goroutine 1 [chan receive]:",
	}, "\n") + strings.Repeat("\n\tsome/frame.go:1 +0x1", 200) + "\nFAIL\tworkshop.local/scripts/workshop\t1200.1s\nFAIL"
	got := goTestFailures(out, 40)
	for _, want := range []string{"[TIMEDOUT] the Makefile", "cluster_makefile_test.go:38", "TestClusterTool (20m0s)", "FAIL\tworkshop.local/scripts/workshop"} {
		if !strings.Contains(got, want) {
			t.Errorf("excerpt lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "some/frame.go") > 12 {
		t.Errorf("excerpt keeps the goroutine dump:\n%s", got)
	}
}

func TestGoTestFailuresFallsBackToTheTail(t *testing.T) {
	if got := goTestFailures("a\nb\nbuild failed: c", 2); got != "b\nbuild failed: c" {
		t.Errorf("got %q, want the last two lines", got)
	}
}
