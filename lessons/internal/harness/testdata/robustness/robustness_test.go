// Package robustness is a fixture for the harness's own tests: a suite where a learner's code
// panics and hangs. TestLearnerPanicsAndHangsFailOnlyTheirSpec runs it and reads its report.
package robustness_test

import (
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"

	"workshop.local/lessons/internal/harness"
)

func TestRobustness(t *testing.T) {
	harness.RunSuite(t, "robustness fixture")
}

var _ = Describe("Exercise 1: a learner's panic", harness.Exercise(1), func() {
	It("panics", func() {
		var counts map[string]int
		counts["x"]++ // the classic: assignment to entry in nil map
	})
	It("still runs after the panic", func() {})
})

var _ = Describe("Exercise 2: a learner's hang", harness.Exercise(2), func() {
	It("hangs, ignoring its context", func(ctx SpecContext) {
		<-make(chan struct{}) // never returns, whatever the context says
	}, SpecTimeout(time.Second))
	It("still runs after the hang", func() {})
})
