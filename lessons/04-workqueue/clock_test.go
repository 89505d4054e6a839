package queues_test

import (
	"context"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
)

// someDay is when the specs' fake clocks start: far from today, so that a delay measured on
// the real clock (time.Now) instead of the queue's clock is off by years, not by a little.
var someDay = time.Date(2031, time.March, 14, 9, 0, 0, 0, time.UTC)

// timerClock is a fake clock that moves only when a spec calls Step, and that also reports
// every timer set on it.
//
// Why the reports: a delaying queue keeps waiting items in a heap, and its background loop
// (waitingLoop in client-go's util/workqueue/delaying_queue.go) runs in its own goroutine, so
// right after AddAfter the item may not be in the heap yet. At the end of each pass, if items
// are waiting, the loop sets a timer for the earliest one (client-go v0.37 makes a new timer
// each pass; a timer Reset is reported too, should a later version reuse one), then blocks
// until the timer fires, an item arrives, or its heartbeat ticks (every 10 s: no spec steps
// that far). So the timer tells the spec that the item is in the heap and the loop is
// blocked, waiting that long for it: only then does Step land where the spec expects.
type timerClock struct {
	*testingclock.FakeClock
	timers chan time.Duration
}

func newTimerClock() *timerClock {
	return &timerClock{FakeClock: testingclock.NewFakeClock(someDay), timers: make(chan time.Duration, 1000)}
}

// NewTimer sets a fake timer, then reports how long it runs.
func (c *timerClock) NewTimer(d time.Duration) clock.Timer {
	timer := c.FakeClock.NewTimer(d)
	c.timers <- d
	return reportingTimer{Timer: timer, timers: c.timers}
}

// reportingTimer reports a Reset like a new timer.
type reportingTimer struct {
	clock.Timer
	timers chan<- time.Duration
}

func (t reportingTimer) Reset(d time.Duration) bool {
	active := t.Timer.Reset(d)
	t.timers <- d
	return active
}

// awaitTimer waits until the queue has set its next timer and returns how long that timer
// runs: how long the queue is going to wait for its earliest item.
func (c *timerClock) awaitTimer(ctx context.Context) time.Duration {
	GinkgoHelper()
	var d time.Duration
	Eventually(c.timers).WithContext(ctx).Should(Receive(&d),
		"the queue never set a timer on the clock it was given: does it run on that clock, and was the item added with a delay?")
	return d
}

// Matchers for delays that say what they saw in human units ("1.28s", "[5ms 10ms]"): Gomega's
// own matchers print a time.Duration as its nanoseconds.

// sameDuration matches the delay want.
func sameDuration(want time.Duration) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(delay time.Duration) (bool, error) { return delay == want, nil }).
		WithTemplate("Expected a delay of {{.Data}}, got {{.Actual}}", want)
}

// sameDurations matches the delays want, in that order.
func sameDurations(want ...time.Duration) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(delays []time.Duration) (bool, error) { return slices.Equal(delays, want), nil }).
		WithTemplate("Expected the delays {{.Data}}, got {{.Actual}}", want)
}

// durationBetween matches a delay from low to high, both included.
func durationBetween(low, high time.Duration) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(delay time.Duration) (bool, error) { return delay >= low && delay <= high, nil }).
		WithTemplate("Expected a delay from {{index .Data 0}} to {{index .Data 1}}, got {{.Actual}}", []time.Duration{low, high})
}
