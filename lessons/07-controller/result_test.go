package mirror_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	mirror "workshop.local/lessons/07-controller"
	"workshop.local/lessons/internal/harness"
)

// errFlaky is the transient failure the specs inject.
var errFlaky = errors.New("injected by the spec: the API server did not answer")

var _ = Describe("Exercise 5: Result, errors and workers", harness.Exercise(5), func() {
	Describe("Classify", func() {
		It("returns no error and a zero Result when the work succeeded", func() {
			result, err := mirror.Classify(nil)
			Expect(err).NotTo(HaveOccurred(), "the work succeeded: return no error")
			Expect(result).To(Equal(reconcile.Result{}), "the work succeeded: return a zero Result; a RequeueAfter here would reconcile the ConfigMap again and again, though its watch already brings every change to it")
		})

		It("turns a wait into RequeueAfter, without an error", func() {
			wait := fmt.Errorf("mirroring into team-a: %w", &mirror.RetryAfterError{Reason: "namespace terminating", After: 42 * time.Second})
			result, err := mirror.Classify(wait)
			Expect(err).NotTo(HaveOccurred(), "a wait is not a failure: with an error, the controller ignores RequeueAfter and retries at the rate limiter's pace")
			Expect(result.RequeueAfter).To(Equal(42*time.Second), "come back after the RetryAfterError's After (find it with errors.As: it may be wrapped)")
		})

		It("makes an invalid target a terminal error", func() {
			invalid := fmt.Errorf("target %q: %w", "Team_A", mirror.ErrInvalidTarget)
			result, err := mirror.Classify(invalid)
			Expect(err).To(MatchError(reconcile.TerminalError(nil)), "retrying cannot fix an invalid target: recognise it through any wrapping (errors.Is) and wrap it with reconcile.TerminalError, so the controller does not retry")
			Expect(err).To(MatchError(mirror.ErrInvalidTarget), "keep the cause in the terminal error")
			Expect(result).To(Equal(reconcile.Result{}))
		})

		It("returns any other error as it is, so that the controller retries", func() {
			result, err := mirror.Classify(errFlaky)
			Expect(err).To(MatchError(errFlaky), "return the error itself")
			Expect(errors.Is(err, reconcile.TerminalError(nil))).To(BeFalse(), "a transient error must not be terminal: it would never be retried")
			Expect(result).To(Equal(reconcile.Result{}))
		})
	})

	It("MirrorOptions sets the reconciler, the workers and the rate limiter", func() {
		rec, limiter := harness.RecordReconciles(nil), harness.FastRateLimiter()
		opts := mirror.MirrorOptions(rec, 3, limiter)
		Expect(opts.Reconciler).To(BeIdenticalTo(rec), "Options.Reconciler should be r")
		Expect(opts.MaxConcurrentReconciles).To(Equal(3), "Options.MaxConcurrentReconciles should be workers")
		Expect(opts.RateLimiter).To(BeIdenticalTo(limiter), "Options.RateLimiter should be retry")
	})

	Describe("in a controller", func() {
		var (
			ns       string
			outcomes *scriptedOutcomes
			rec      *harness.ReconcileRecorder
			trigger  func(name string)
		)

		// start runs a controller made from MirrorOptions whose reconciler returns
		// Classify(the next outcome scripted for the request), and which reconciles the names
		// passed to trigger. The retries use harness.FastRateLimiter.
		start := func(ctx SpecContext, workers int, inner reconcile.Reconciler) {
			GinkgoHelper()
			ns = cluster.Namespace(ctx, prefix)
			rec = harness.RecordReconciles(inner)
			mgr := newManager(cluster.Config, ns)
			c, err := controller.New("lesson07-results", mgr, mirror.MirrorOptions(rec, workers, harness.FastRateLimiter()))
			Expect(err).NotTo(HaveOccurred(), "controller.New refused MirrorOptions (is exercise 5 still the stub?)")
			triggers := make(chan event.GenericEvent, 16)
			Expect(c.Watch(source.Channel(triggers, &handler.EnqueueRequestForObject{}))).To(Succeed())
			harness.StartManager(ctx, mgr)
			trigger = func(name string) { triggers <- event.GenericEvent{Object: configMap(ns, name, "", nil)} }
		}

		BeforeEach(func() { outcomes = &scriptedOutcomes{next: map[string][]error{}} })

		It("retries a failing request at the rate limiter's pace, and stops once it succeeds", func(ctx SpecContext) {
			start(ctx, 1, outcomes.reconciler())
			outcomes.script("flaky", errFlaky, errFlaky, errFlaky, nil)
			trigger("flaky")
			flaky := key(ns, "flaky")
			Eventually(func() int { return rec.CountFor(flaky) }).WithContext(ctx).Should(Equal(4),
				"a request that failed 3 times should be tried 4 times: return the error, and the controller retries it")
			for i, gap := range rec.Gaps(flaky) {
				want := harness.FastRetryDelay(i + 1)
				Expect(gap).To(BeNumerically(">=", want), "retry %d came %s after the failure, before the rate limiter's %s: is MirrorOptions passing retry as the RateLimiter?", i+1, gap, want)
				Expect(gap).To(BeNumerically("<", want+2*time.Second), "retry %d came %s after the failure; the rate limiter said %s", i+1, gap, want)
			}
		}, SpecTimeout(harness.Timeout))

		It("never retries a terminal error", func(ctx SpecContext) {
			start(ctx, 1, outcomes.reconciler())
			outcomes.script("invalid", fmt.Errorf("target %q: %w", "Team_A", mirror.ErrInvalidTarget), nil)
			trigger("invalid")
			invalid := key(ns, "invalid")
			Eventually(func() int { return rec.CountFor(invalid) }).WithContext(ctx).ShouldNot(BeZero(), "the request was never reconciled")
			// A retry would come FastRetryBase later; watch for many times that.
			Consistently(func() int { return rec.CountFor(invalid) }).WithContext(ctx).WithTimeout(20*harness.FastRetryBase).Should(Equal(1),
				"a terminal error was retried: wrap it with reconcile.TerminalError")
		}, SpecTimeout(harness.Timeout))

		It("comes back after RequeueAfter, not sooner", func(ctx SpecContext) {
			const wait = 300 * time.Millisecond
			start(ctx, 1, outcomes.reconciler())
			outcomes.script("waiting", &mirror.RetryAfterError{Reason: "namespace terminating", After: wait}, nil)
			trigger("waiting")
			waiting := key(ns, "waiting")
			Eventually(func() int { return rec.CountFor(waiting) }).WithContext(ctx).Should(Equal(2),
				"a request that asked to wait should be reconciled again after the wait: Result{RequeueAfter: ...}")
			gap := rec.Gaps(waiting)[0]
			Expect(gap).To(BeNumerically(">=", wait), "the request came back %s after it asked to wait %s: return Result{RequeueAfter: After} and no error (with an error, or with Requeue, the rate limiter decides)", gap, wait)
			Expect(gap).To(BeNumerically("<", wait+2*time.Second), "the request came back %s after it asked to wait %s", gap, wait)
		}, SpecTimeout(harness.Timeout))

		It("reconciles different keys in parallel, and one key never twice at once", func(ctx SpecContext) {
			gate := make(chan struct{})
			start(ctx, 3, reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
				select {
				case <-gate:
				case <-ctx.Done():
				}
				return reconcile.Result{}, nil
			}))
			for _, name := range []string{"a", "b", "c", "a", "a"} {
				trigger(name)
			}
			Eventually(rec.Running).WithContext(ctx).Should(Equal(3),
				"with workers = 3, three different keys should be reconciled at the same time: set MaxConcurrentReconciles")
			Expect(rec.StartedFor(key(ns, "a"))).To(Equal(1), "a started twice while its first reconcile was running")
			trigger("a") // while a is being reconciled: it is marked to run again once it is done
			close(gate)
			Eventually(func() int { return rec.CountFor(key(ns, "a")) }).WithContext(ctx).Should(Equal(2),
				"a was triggered again while it was reconciled: it should be reconciled once more afterwards")
			Expect(rec.MaxConcurrentPerKey()).To(Equal(1), "two reconciles of one key ran at once")
			Expect(rec.MaxConcurrent()).To(Equal(3))
		}, SpecTimeout(harness.Timeout))
	})
})

// scriptedOutcomes gives each request the outcomes a spec scripted for it, one per call; the
// last one repeats. Its reconciler returns mirror.Classify(outcome).
type scriptedOutcomes struct {
	mu   sync.Mutex
	next map[string][]error
}

func (s *scriptedOutcomes) script(name string, outcomes ...error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next[name] = outcomes
}

func (s *scriptedOutcomes) take(req types.NamespacedName) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	outcomes := s.next[req.Name]
	if len(outcomes) == 0 {
		return nil
	}
	if len(outcomes) > 1 {
		s.next[req.Name] = outcomes[1:]
	}
	return outcomes[0]
}

func (s *scriptedOutcomes) reconciler() reconcile.Reconciler {
	return reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
		return mirror.Classify(s.take(req.NamespacedName))
	})
}
