// Package races makes a data race fail the spec it happened in. It is apart from the harness so
// that its own test builds only Ginkgo with the race detector, not the whole harness.
package races

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
)

// FailSpecsThatRace makes a data race fail the spec during which the race detector saw it.
//
// Under `go test -race` the detector prints "WARNING: DATA RACE" and the testing package marks
// the test failed, but only when TestXxx returns: by then Ginkgo has reported every spec as
// passed, and the tools, which read Ginkgo's report, would count a racy exercise as done.
// testing.T.Failed asks the detector's count of reports as it is now, so a check after each
// spec can name the spec instead. It runs last (a DeferCleanup made before the spec runs is
// the last to run), after the spec's managers and workers have stopped.
func FailSpecsThatRace(t *testing.T) {
	if !raceEnabled {
		return
	}
	BeforeEach(func() {
		failedBefore := t.Failed()
		DeferCleanup(func() {
			if !failedBefore && t.Failed() {
				Fail("the race detector found a data race during this spec (WARNING: DATA RACE in the output above): " +
					"two goroutines used the same memory, at least one writing, with nothing ordering them; " +
					"guard shared state with a mutex or keep it per goroutine")
			}
		})
	})
}
