// Package race is a fixture suite for the races package's own test (races_test.go): one spec whose
// goroutines race on a counter, and specs around it that do not.
package race

import (
	"sync"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"workshop.local/lessons/internal/harness/races"
)

func TestRaceFixture(t *testing.T) {
	RegisterFailHandler(Fail)
	races.FailSpecsThatRace(t) // what harness.RunSuite does
	RunSpecs(t, "races fixture")
}

var _ = Describe("the race detector", func() {
	It("passes before the race", func() {})

	It("races", func() {
		counter := 0
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() { counter++ }) // two writers, nothing ordering them
		}
		wg.Wait()
		_ = counter
	})

	It("passes after the race", func() {})
})
