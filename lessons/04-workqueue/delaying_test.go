package queues_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	queues "workshop.local/lessons/04-workqueue"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 3: the delaying queue", harness.Exercise(3), func() {
	var (
		clock    *timerClock
		schedule *queues.Schedule[string]
	)

	BeforeEach(func() {
		clock = newTimerClock()
		schedule = queues.NewSchedule[string](clock)
		Expect(schedule).NotTo(BeNil(), "NewSchedule returned nil")
		Expect(schedule.TypedDelayingInterface).NotTo(BeNil(), "NewSchedule should set the Schedule's delaying queue")
		DeferCleanup(schedule.ShutDown)
	})

	// at is a time the given offset after the fake clock's start.
	at := func(offset time.Duration) time.Time { return someDay.Add(offset) }

	// awaitWaiting waits until the queue has taken in the item just scheduled: it then sets a
	// timer for its earliest item, which no item here puts more than 5 s away.
	awaitWaiting := func(ctx context.Context) {
		GinkgoHelper()
		Expect(clock.awaitTimer(ctx)).To(BeNumerically("<=", 5*time.Second),
			"the queue waits longer than any item's time: measure the delay on the schedule's clock, not with time.Now")
	}

	It("holds an item back until its time comes on the queue's clock", func(ctx SpecContext) {
		schedule.AddAt("a", at(time.Second))
		Expect(clock.awaitTimer(ctx)).To(Equal(time.Second),
			"a is due 1 s after the clock's now, so the queue should wait 1 s: measure the delay on the schedule's clock, not with time.Now")
		clock.Step(time.Second - time.Millisecond)
		Expect(schedule.Len()).To(BeZero(), "1 ms before its time, a is still waiting")
		clock.Step(time.Millisecond)
		Eventually(schedule.Len).WithContext(ctx).Should(Equal(1), "a's time has come: it should be in line")
	}, SpecTimeout(harness.Timeout))

	It("hands items out in the order they become due, not the order they were added", func(ctx SpecContext) {
		for _, item := range []struct {
			name string
			due  time.Duration
		}{{"a", 3 * time.Second}, {"b", time.Second}, {"c", 2 * time.Second}} {
			schedule.AddAt(item.name, at(item.due))
			awaitWaiting(ctx)
		}
		clock.Step(3 * time.Second)
		Eventually(schedule.Len).WithContext(ctx).Should(Equal(3), "all three items are due")
		Expect(takeAll(schedule)).To(Equal([]string{"b", "c", "a"}), "due after 1 s, 2 s and 3 s")
	}, SpecTimeout(harness.Timeout))

	It("keeps the earlier time when an item is scheduled twice", func(ctx SpecContext) {
		schedule.AddAt("a", at(5*time.Second))
		awaitWaiting(ctx)
		schedule.AddAt("a", at(time.Second))
		awaitWaiting(ctx)
		schedule.AddAt("b", at(3*time.Second))
		awaitWaiting(ctx)
		clock.Step(5 * time.Second)
		Eventually(schedule.Len).WithContext(ctx).Should(Equal(2), "a and b are due")
		Expect(takeAll(schedule)).To(Equal([]string{"a", "b"}), "a was due after 1 s (the earlier of its times), b after 3 s")
	}, SpecTimeout(harness.Timeout))

	It("adds an item whose time has passed at once", func() {
		schedule.AddAt("a", at(-time.Minute))
		Expect(schedule.Len()).To(Equal(1), "a was due a minute before the clock's now, so it should be in line at once (a delay of zero or less)")
	})

	It("drops waiting items on ShutDown, after which Get reports the shutdown", func(ctx SpecContext) {
		schedule.AddAt("a", at(time.Second))
		awaitWaiting(ctx)
		schedule.ShutDown()
		_, shutdown := schedule.Get()
		Expect(shutdown).To(BeTrue(), "the queue is shut down and empty: Get should say so")
		schedule.AddAt("b", at(-time.Minute))
		Expect(schedule.Len()).To(BeZero(), "a shut-down queue ignores new items")
	}, SpecTimeout(harness.Timeout))
})

// takeAll takes every item that is in line, marking each one done, and returns them in order.
func takeAll(schedule *queues.Schedule[string]) []string {
	var items []string
	for schedule.Len() > 0 {
		item, _ := schedule.Get()
		schedule.Done(item)
		items = append(items, item)
	}
	return items
}
