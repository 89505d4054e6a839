package loop

import (
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// TestOnlyTheFirstPanicIsShownWhole: a stub panics the same way in every spec of its exercise;
// make check shows that stack trace once and counts the others.
func TestOnlyTheFirstPanicIsShownWhole(t *testing.T) {
	var specs []types.SpecReport
	for _, name := range []string{"first", "second", "third"} {
		specs = append(specs, types.SpecReport{
			LeafNodeText: name, State: types.SpecStatePanicked,
			Failure: types.Failure{Message: "Test Panicked", ForwardedPanic: "exercise 2 is not implemented yet",
				Location: types.CodeLocation{FullStackTrace: "goroutine 7 [running]:\nstack-of-" + name}},
		})
	}
	var out strings.Builder
	printFull(&out, look{}, specs)
	text := out.String()
	if !strings.Contains(text, "stack-of-first") || strings.Contains(text, "stack-of-second") || strings.Contains(text, "stack-of-third") {
		t.Errorf("want the first stack trace only:\n%s", text)
	}
	if !strings.Contains(text, "2 more specs panicked") {
		t.Errorf("want the others counted:\n%s", text)
	}
}
