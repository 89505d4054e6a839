package queues_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	"k8s.io/client-go/util/workqueue"

	queues "workshop.local/lessons/04-workqueue"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 2: rate limiters", harness.Exercise(2), func() {
	Describe("PerItemBackoff", func() {
		It("doubles an item's delay with each failure, up to the maximum", func() {
			limiter := queues.PerItemBackoff[string](time.Second, 10*time.Second)
			var delays []time.Duration
			for range 6 {
				delays = append(delays, limiter.When("a"))
			}
			Expect(delays).To(Equal([]time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}),
				"the delays of six failures in a row, with base 1 s and max 10 s")
			Expect(limiter.NumRequeues("a")).To(Equal(6), "NumRequeues counts the item's failures")
		})

		It("counts each item apart, and starts an item again after Forget", func() {
			limiter := queues.PerItemBackoff[string](time.Second, time.Minute)
			for range 3 {
				limiter.When("a")
			}
			Expect(limiter.When("b")).To(Equal(time.Second), "b has not failed before: a's failures must not slow it down")
			limiter.Forget("a")
			Expect(limiter.NumRequeues("a")).To(BeZero(), "Forget clears the item's failures")
			Expect(limiter.When("a")).To(Equal(time.Second), "after Forget, the item starts again from the base delay")
		})

		It("holds a failed item back in a rate-limiting queue for exactly its delay", func(ctx SpecContext) {
			clock := newTimerClock()
			queue := workqueue.NewTypedRateLimitingQueueWithConfig(queues.PerItemBackoff[string](time.Second, time.Minute),
				workqueue.TypedRateLimitingQueueConfig[string]{Clock: clock})
			DeferCleanup(queue.ShutDown)

			queue.AddRateLimited("a")
			Expect(clock.awaitTimer(ctx)).To(Equal(time.Second), "the queue should wait the delay your limiter gave for a first failure")
			clock.Step(time.Second - time.Millisecond)
			Expect(queue.Len()).To(BeZero(), "1 ms before its delay is over, the item is still waiting")
			clock.Step(time.Millisecond)
			Eventually(queue.Len).WithContext(ctx).Should(Equal(1), "once its delay is over, the item is in line")

			item, _ := queue.Get()
			queue.Done(item)
			queue.AddRateLimited("a")
			Expect(clock.awaitTimer(ctx)).To(Equal(2*time.Second), "the second failure in a row waits twice as long")
		}, SpecTimeout(harness.Timeout))
	})

	Describe("OverallLimit", func() {
		It("lets a burst of 3 through at once, then one item a second, whatever the item (rate.NewLimiter(1, 3))", func() {
			start := time.Now()
			limiter := queues.OverallLimit[string](1, 3)
			for _, item := range []string{"a", "b", "c"} {
				Expect(limiter.When(item)).To(BeZero(), "the bucket starts full: the first 3 items go at once")
			}
			// The bucket refills while the spec runs, so each delay may be a little shorter
			// than a whole number of seconds, by at most the time elapsed since start.
			for i, item := range []string{"d", "a", "e"} {
				delay := limiter.When(item)
				want := time.Duration(i+1) * time.Second
				Expect(delay).To(aboutAfter(want, start), "item %s is number %d after the burst: it waits until the bucket has a token for it", item, i+1)
			}
			Expect(limiter.NumRequeues("a")).To(BeZero(), "the bucket counts no item's failures")
		})
	})

	Describe("ControllerRateLimiter", func() {
		It("backs a failing item off from 5 ms, doubling, and starts it again after Forget", func() {
			limiter := queues.ControllerRateLimiter[string]()
			var delays []time.Duration
			for range 4 {
				delays = append(delays, limiter.When("a"))
			}
			Expect(delays).To(Equal([]time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}),
				"while the bucket has tokens, the per-item backoff decides")
			limiter.Forget("a")
			Expect(limiter.When("a")).To(Equal(5*time.Millisecond), "after Forget, the item starts again from 5 ms")
		})

		It("holds a storm of failures to 10 a second once the burst of 100 is spent", func() {
			start := time.Now()
			limiter := queues.ControllerRateLimiter[string]()
			for i := range 100 {
				Expect(limiter.When(fmt.Sprintf("item-%d", i))).To(Equal(5*time.Millisecond), "item-%d fails for the first time: the per-item delay (5 ms) is the larger", i)
			}
			Expect(limiter.When("item-100")).To(aboutAfter(100*time.Millisecond, start),
				"the bucket of 100 is spent: the 101st item waits for a token (1/10 s), the larger delay now")
		})
	})
})

// aboutAfter matches a delay a token bucket gives for a token due want after start: want,
// less the time that has passed since start (the bucket refilled meanwhile), but no more.
func aboutAfter(want time.Duration, start time.Time) types.GomegaMatcher {
	return And(BeNumerically("<=", want), BeNumerically(">=", want-time.Since(start)))
}
