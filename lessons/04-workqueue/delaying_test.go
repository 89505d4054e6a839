package queues_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	queues "workshop.local/lessons/04-workqueue"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 3: the delaying queue's waiting room", harness.Exercise(3), func() {
	var waiting *queues.Waiting[string]
	BeforeEach(func() { waiting = queues.NewWaiting[string]() })

	// at is a time the given offset after someDay. No clock is needed: the specs say what
	// "now" is by passing it to PopReady.
	at := func(offset time.Duration) time.Time { return someDay.Add(offset) }

	It("holds an item until its time, and hands it out at its time", func() {
		waiting.Add("a", at(time.Second))
		Expect(waiting.PopReady(at(time.Second-time.Nanosecond))).To(BeEmpty(), "1 ns before its time, a is still waiting")
		Expect(waiting.Len()).To(Equal(1), "a is waiting")
		Expect(waiting.PopReady(at(time.Second))).To(Equal([]string{"a"}), "a is due exactly at its time: due means not after now")
		Expect(waiting.Len()).To(BeZero(), "PopReady removes what it hands out")
		Expect(waiting.PopReady(at(time.Hour))).To(BeEmpty(), "a was handed out once; it is not handed out again")
	})

	It("hands items out in the order they become due, not the order they were added", func() {
		waiting.Add("a", at(3*time.Second))
		waiting.Add("b", at(time.Second))
		waiting.Add("c", at(2*time.Second))
		waiting.Add("d", at(5*time.Second))
		Expect(waiting.PopReady(at(3*time.Second))).To(Equal([]string{"b", "c", "a"}), "due after 1 s, 2 s and 3 s: earliest first, from the heap's root")
		Expect(waiting.Len()).To(Equal(1), "d is not due yet")
		expectNextReadyAt(waiting, at(5*time.Second), "only d is waiting, due after 5 s")
	})

	It("says when the earliest item becomes ready, and that nothing waits when the room is empty", func() {
		_, ok := waiting.NextReadyAt()
		Expect(ok).To(BeFalse(), "nothing waits: NextReadyAt should say false, so that the loop sets no timer")
		waiting.Add("a", at(2*time.Second))
		waiting.Add("b", at(time.Second))
		expectNextReadyAt(waiting, at(time.Second), "b is due first, after 1 s")
	})

	It("keeps the earlier time when an item is added again while it waits", func() {
		waiting.Add("a", at(5*time.Second))
		waiting.Add("b", at(3*time.Second))
		waiting.Add("a", at(time.Second))
		waiting.Add("a", at(4*time.Second))
		Expect(waiting.Len()).To(Equal(2), "a was added three times and b once: a waits once, however often it is added")
		expectNextReadyAt(waiting, at(time.Second), "a was added for 5 s, then 1 s, then 4 s: it keeps the earliest, 1 s")
		Expect(waiting.PopReady(at(time.Second))).To(Equal([]string{"a"}))
		Expect(waiting.PopReady(at(10*time.Second))).To(Equal([]string{"b"}), "a was handed out at 1 s: it must not come out again at 4 s or 5 s")
	})

	It("moves an item added again for an earlier time ahead of the others", func() {
		for i, item := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			waiting.Add(item, at(time.Duration(i+1)*10*time.Second))
		}
		waiting.Add("g", at(5*time.Second))
		expectNextReadyAt(waiting, at(5*time.Second), "g moved from 70 s to 5 s, so it is due first, ahead of the items it was behind")
		Expect(waiting.PopReady(at(25*time.Second))).To(Equal([]string{"g", "a", "b"}), "due after 5 s (g), 10 s (a) and 20 s (b)")
	})

	It("lets an item that was handed out wait again", func() {
		waiting.Add("a", at(time.Second))
		Expect(waiting.PopReady(at(time.Second))).To(Equal([]string{"a"}))
		waiting.Add("a", at(2*time.Second))
		Expect(waiting.Len()).To(Equal(1), "a was handed out, then added again: it should wait again, like any item added")
		Expect(waiting.PopReady(at(2 * time.Second))).To(Equal([]string{"a"}))
	})

	It("hands out at once an item added with a time already past", func() {
		Expect(waiting.PopReady(at(10 * time.Second))).To(BeEmpty())
		waiting.Add("late", at(5*time.Second))
		Expect(waiting.PopReady(at(10*time.Second))).To(Equal([]string{"late"}),
			"late was added with a time (5 s) before the now of the last PopReady (10 s): an item whose time has passed is due, and the next PopReady hands it out")

		// The queue's clock need not be the real one: a fake clock may stand years back.
		longAgo := time.Date(2001, time.May, 1, 12, 0, 0, 0, time.UTC)
		waiting.Add("b", longAgo.Add(2*time.Second))
		waiting.Add("a", longAgo.Add(time.Second))
		Expect(waiting.PopReady(longAgo.Add(3*time.Second))).To(Equal([]string{"a", "b"}),
			"a and b were added for 1 s and 2 s after a time long past, on a clock that reads 3 s after it: both are due, and nothing but the now given to PopReady says what is past")
	})

	It("agrees with a plain sorted list over many adds and pops", func() {
		// A fixed seed: the same adds every run. Every add has its own time, so there is
		// exactly one right order.
		random := rand.New(rand.NewPCG(4, 2))
		offsets := random.Perm(600)
		model := map[string]time.Time{}
		now := someDay
		for step, offset := range offsets {
			item, readyAt := fmt.Sprintf("item-%d", random.IntN(40)), at(time.Duration(offset)*time.Second)
			waiting.Add(item, readyAt)
			if old, ok := model[item]; !ok || readyAt.Before(old) {
				model[item] = readyAt
			}
			if step%10 == 9 {
				now = now.Add(7 * time.Second)
				Expect(waiting.PopReady(now)).To(equalItems(popModel(model, now)), "after add %d, PopReady(%s) handed out the wrong items (or in the wrong order)", step+1, now.Sub(someDay))
				Expect(waiting.Len()).To(Equal(len(model)), "after add %d, the wrong number of items is waiting", step+1)
			}
		}
	})
})

// expectNextReadyAt checks that NextReadyAt reports want.
func expectNextReadyAt(waiting *queues.Waiting[string], want time.Time, description string) {
	GinkgoHelper()
	next, ok := waiting.NextReadyAt()
	Expect(ok).To(BeTrue(), "items are waiting, so NextReadyAt should say true")
	// Compared as text, such as "1s", which reads better than nanoseconds in a failure.
	Expect(next.Sub(someDay).String()).To(Equal(want.Sub(someDay).String()), description)
}

// popModel does what PopReady should, on a map from each waiting item to its time: it removes
// the items due at now and returns them, earliest first.
func popModel(model map[string]time.Time, now time.Time) []string {
	var ready []string
	for item, readyAt := range model {
		if !readyAt.After(now) {
			ready = append(ready, item)
		}
	}
	slices.SortFunc(ready, func(a, b string) int { return model[a].Compare(model[b]) })
	for _, item := range ready {
		delete(model, item)
	}
	return ready
}

// equalItems matches the items PopReady returns: want in that order, or nothing at all (a nil
// slice or an empty one) when want is empty.
func equalItems(want []string) types.GomegaMatcher {
	if len(want) == 0 {
		return BeEmpty()
	}
	return Equal(want)
}
