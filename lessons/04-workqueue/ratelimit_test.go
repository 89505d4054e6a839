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
		It("doubles an item's delay with each failure, from the base up to the maximum", func() {
			limiter := queues.NewPerItemBackoff[string](time.Second, 10*time.Second)
			Expect(whenTimes(limiter, "a", 6)).To(sameDurations(time.Second, 2*time.Second, 4*time.Second, 8*time.Second, 10*time.Second, 10*time.Second),
				"the delays of six failures in a row, with base 1 s and max 10 s: the first failure waits the base")
			Expect(limiter.NumRequeues("a")).To(Equal(6), "NumRequeues counts the item's failures: one per When")
		})

		It("counts each item apart, and starts an item again after Forget", func() {
			limiter := queues.NewPerItemBackoff[string](time.Second, time.Minute)
			whenTimes(limiter, "a", 3)
			Expect(limiter.NumRequeues("b")).To(BeZero(), "b has not failed yet")
			Expect(limiter.When("b")).To(sameDuration(time.Second), "b fails for the first time: a's failures must not slow it down")
			Expect(limiter.NumRequeues("a")).To(Equal(3), "a failed three times; b's failure is not a's")

			limiter.Forget("a")
			Expect(limiter.NumRequeues("a")).To(BeZero(), "Forget clears the item's failures")
			Expect(limiter.When("a")).To(sameDuration(time.Second), "after Forget, the item starts again from the base delay")
			Expect(limiter.NumRequeues("b")).To(Equal(1), "forgetting a must not forget b")
		})

		It("stays at the maximum however many times an item fails, without overflowing", func() {
			for _, base := range []time.Duration{5 * time.Millisecond, time.Second} {
				limiter := queues.NewPerItemBackoff[string](base, 1000*time.Second)
				delays := whenTimes(limiter, "a", 100)
				for failure, delay := range delays {
					Expect(delay).To(durationBetween(base, 1000*time.Second),
						"with base %v and max 1000 s, failure %d waits %v: base × 2^n overflows an int64 of nanoseconds (for a 1 s base, from n = 34), and a delay that wraps around leaves the range from base to max", base, failure+1, delay)
				}
				Expect(delays[99]).To(sameDuration(1000*time.Second), "after 100 failures the item waits the maximum")
			}
		})

		It("counts every failure when many workers fail at once", func(ctx SpecContext) {
			count, output, err := runHammer(ctx)
			Expect(err).NotTo(HaveOccurred(), "%d workers calling When, NumRequeues and Forget at once stopped the program (it ran in a child process):\n%s\nthe failure counts were read and written by several goroutines at once", hammerWorkers, output)
			Expect(count).To(Equal(hammerWorkers*hammerCalls), "%d workers counted %d failures each of one item, and some were lost: failures counted at the same time must all count", hammerWorkers, hammerCalls)
		}, SpecTimeout(harness.Timeout))

		It("holds a failed item back in a rate-limiting queue for exactly its delay", func(ctx SpecContext) {
			clock := newTimerClock()
			queue := workqueue.NewTypedRateLimitingQueueWithConfig[string](queues.NewPerItemBackoff[string](time.Second, time.Minute),
				workqueue.TypedRateLimitingQueueConfig[string]{Clock: clock})
			DeferCleanup(queue.ShutDown)

			queue.AddRateLimited("a")
			Expect(clock.awaitTimer(ctx)).To(sameDuration(time.Second), "the queue should wait the delay your limiter gave for a first failure")
			clock.Step(time.Second - time.Millisecond)
			Expect(queue.Len()).To(BeZero(), "1 ms before its delay is over, the item is still waiting")
			clock.Step(time.Millisecond)
			Eventually(queue.Len).WithContext(ctx).Should(Equal(1), "once its delay is over, the item is in line")

			item, _ := queue.Get()
			queue.Done(item)
			queue.AddRateLimited("a")
			Expect(clock.awaitTimer(ctx)).To(sameDuration(2*time.Second), "the second failure in a row waits twice as long")
			Expect(queue.NumRequeues("a")).To(Equal(2), "the queue asks your limiter how many failures it counted")
		}, SpecTimeout(harness.Timeout))
	})

	Describe("ControllerRateLimiter", func() {
		It("backs a failing item off from 5 ms, doubling, and starts it again after Forget", func() {
			limiter := queues.ControllerRateLimiter[string]()
			Expect(whenTimes(limiter, "a", 4)).To(sameDurations(5*time.Millisecond, 10*time.Millisecond, 20*time.Millisecond, 40*time.Millisecond),
				"while the bucket has tokens, the per-item backoff (5 ms, doubling) decides")
			Expect(limiter.NumRequeues("a")).To(Equal(4), "the max-of limiter reports the per-item count")
			limiter.Forget("a")
			Expect(limiter.When("a")).To(sameDuration(5*time.Millisecond), "after Forget, the item starts again from 5 ms")
		})

		It("lets a failing item's delay keep doubling past 1 s, up to 1000 s", func() {
			limiter := queues.ControllerRateLimiter[string]()
			// 20 failures of one item take 20 of the bucket's 100 tokens: the per-item delay decides.
			delays := whenTimes(limiter, "a", 20)
			Expect(delays[8]).To(sameDuration(1280*time.Millisecond),
				"the 9th failure in a row of one item should wait 5 ms × 2^8 = 1.28 s: its delay keeps doubling past 1 s")
			Expect(delays[17]).To(sameDuration(655360*time.Millisecond),
				"the 18th failure in a row should wait 5 ms × 2^17 = 655.36 s (some 11 minutes), below the maximum of 1000 s")
			Expect(delays[18:]).To(HaveEach(sameDuration(1000*time.Second)),
				"from the 19th failure in a row (5 ms × 2^18 is some 1311 s) an item waits the maximum, 1000 s (some 17 minutes)")
		})

		It("holds a storm of failures to 10 a second once the burst of 100 is spent", func() {
			start := time.Now()
			limiter := queues.ControllerRateLimiter[string]()
			for i := range 100 {
				Expect(limiter.When(fmt.Sprintf("item-%d", i))).To(sameDuration(5*time.Millisecond), "item-%d fails for the first time: with tokens left in the bucket of 100, the per-item delay (5 ms) is the larger", i)
			}
			// The bucket refills while the spec runs, so the delay may be a little shorter than
			// 1/10 s, by at most the time elapsed since start.
			Expect(limiter.When("item-100")).To(aboutAfter(100*time.Millisecond, start),
				"the bucket of 100 is spent: the 101st item waits for a token (1/10 s), the larger delay now")
		})
	})
})

// whenTimes asks limiter n times how long item should wait, as n failures in a row would.
func whenTimes(limiter workqueue.TypedRateLimiter[string], item string, n int) []time.Duration {
	var delays []time.Duration
	for range n {
		delays = append(delays, limiter.When(item))
	}
	return delays
}

// aboutAfter matches a delay a token bucket gives for a token due want after start: want,
// less the time that has passed since start (the bucket refilled meanwhile), but no more.
func aboutAfter(want time.Duration, start time.Time) types.GomegaMatcher {
	return durationBetween(want-time.Since(start), want)
}
