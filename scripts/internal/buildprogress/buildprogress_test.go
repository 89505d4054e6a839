package buildprogress

import "testing"

// TestTraceLinesAreNotCompilerOutput proves the -x trace is told apart from the compiler's
// messages, so a failed build with progress still reports what the compiler said.
func TestTraceLinesAreNotCompilerOutput(t *testing.T) {
	trace := []string{"mkdir -p $WORK/b001/", "cd /work/lessons/x", "# import config", "packagefile fmt=/root/.cache/x", "/usr/local/go/pkg/tool/linux_amd64/compile -o $WORK/b125/_pkg_.a -p x"}
	for _, line := range trace {
		if !isTraceLine(line) {
			t.Errorf("%q taken for compiler output", line)
		}
	}
	for _, line := range []string{"# workshop.local/lessons/x", "./a.go:4:3: undefined: y", "\thave (int)", "FAIL\tx [build failed]"} {
		if isTraceLine(line) {
			t.Errorf("%q taken for the -x trace", line)
		}
	}
	if got := packageOf(trace[4]); got != "x" {
		t.Errorf("packageOf = %q, want x", got)
	}
}
