package specrun

import (
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// A wrong answer must fail a spec with a message that says what was expected, never crash the
// spec's own code: a learner who meets "slice bounds out of range" in apply_test.go learns
// nothing about their mistake. A panic in the learner's code is another matter: the harness
// contains it and the spec fails with the panic's message, which points at the learner's line.

// PanickedInSpecs says where a spec's own code (a _test.go file, or the harness) panicked, or ""
// when the spec did not panic or the panic came from the learner's code or a library.
func (s Spec) PanickedInSpecs() string {
	if s.Report.State != types.SpecStatePanicked {
		return ""
	}
	file, line := panicSite(s.Report.Failure.Location.FullStackTrace)
	if strings.HasSuffix(file, "_test.go") || strings.Contains(file, "/lessons/internal/harness/") {
		return file + ":" + line
	}
	return ""
}

// panicSite is the file and line where a panic happened: the first frame of the stack trace
// (runtime/debug.Stack's format: a function line, then "\tfile:line +0x...") that is not the
// Go runtime's own.
func panicSite(stack string) (file, line string) {
	lines := strings.Split(stack, "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		function, where := lines[i], strings.TrimSpace(lines[i+1])
		if strings.HasPrefix(function, "runtime.") || strings.HasPrefix(function, "panic(") || strings.Contains(where, "/src/runtime/") {
			continue
		}
		where, _, _ = strings.Cut(where, " +0x")
		i := strings.LastIndex(where, ":")
		if i < 0 {
			return where, ""
		}
		return where[:i], where[i+1:]
	}
	return "", ""
}
