package mirror_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	mirror "workshop.local/lessons/07-controller"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 4: external triggers with source.Channel", harness.Exercise(4), func() {
	// pingController starts a controller that watches nothing but the pings (through the
	// learner's WatchPings), and returns the channel to send them on.
	pingController := func(ctx SpecContext, ns string, workers int, rec *harness.ReconcileRecorder) chan<- event.TypedGenericEvent[mirror.Ping] {
		GinkgoHelper()
		mgr := newManager(cluster.Config, ns)
		c, err := controller.New("lesson07-pings", mgr, controller.Options{Reconciler: rec, MaxConcurrentReconciles: workers})
		Expect(err).NotTo(HaveOccurred())
		pings := make(chan event.TypedGenericEvent[mirror.Ping])
		Expect(mirror.WatchPings(c, pings)).To(Succeed(), "WatchPings failed")
		harness.StartManager(ctx, mgr)
		return pings
	}

	It("reconciles the ConfigMap each ping names, and drops pings that name none", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		rec := harness.RecordReconciles(nil)
		pings := pingController(ctx, ns, 1, rec)

		send(ctx, pings, mirror.Ping{Namespace: ns, Name: "a"})
		send(ctx, pings, mirror.Ping{Namespace: ns, Name: "b"})
		send(ctx, pings, mirror.Ping{Namespace: ns})
		send(ctx, pings, mirror.Ping{Name: "c"})
		send(ctx, pings, mirror.Ping{Namespace: ns, Name: "marker"})
		Eventually(rec.Keys).WithContext(ctx).Should(ContainElement(ns+"/marker"), "the last ping, for %s/marker, was never reconciled", ns)
		Expect(rec.Keys()).To(ConsistOf(ns+"/a", ns+"/b", ns+"/marker"),
			"each complete ping should enqueue the request for its Namespace and Name; a ping without a namespace, or without a name, names no object: drop it with a predicate (source.WithPredicates) that wants both")
	}, SpecTimeout(harness.Timeout))

	It("goes through the queue: pings for a key being reconciled make one more reconcile, not many", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		release := make(chan struct{})
		slow := key(ns, "slow")
		rec := harness.RecordReconciles(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			if req.NamespacedName == slow {
				select {
				case <-release:
				case <-ctx.Done():
				}
			}
			return reconcile.Result{}, nil
		}))
		pings := pingController(ctx, ns, 2, rec)

		send(ctx, pings, mirror.Ping{Namespace: ns, Name: "slow"})
		Eventually(rec.Running).WithContext(ctx).Should(Equal(1), "the ping for %s was never reconciled", slow)
		for range 5 {
			send(ctx, pings, mirror.Ping{Namespace: ns, Name: "slow"})
		}
		// The channel's events are handled in order: once the second worker has reconciled the
		// marker, the 5 pings before it are in the queue.
		send(ctx, pings, mirror.Ping{Namespace: ns, Name: "marker"})
		Eventually(rec.Keys).WithContext(ctx).Should(ContainElement(ns+"/marker"), "the ping for %s/marker was never reconciled", ns)
		Expect(rec.StartedFor(slow)).To(Equal(1), "%s was reconciled twice at once, or its pings bypassed the queue", slow)
		close(release)
		Eventually(func() int { return rec.CountFor(slow) }).WithContext(ctx).Should(Equal(2),
			"5 pings came while %s was being reconciled: the queue keeps one request per key, so that is one more reconcile after the first (enqueue through the controller's queue; never call Reconcile yourself)", slow)
		Expect(rec.MaxConcurrentPerKey()).To(Equal(1), "two reconciles of one key ran at once")
	}, SpecTimeout(harness.Timeout))
})

// send sends a ping, or fails if nobody takes it: a source.Channel that the controller
// watches reads its channel all the time.
func send(ctx context.Context, pings chan<- event.TypedGenericEvent[mirror.Ping], p mirror.Ping) {
	GinkgoHelper()
	select {
	case pings <- event.TypedGenericEvent[mirror.Ping]{Object: p}:
	case <-time.After(10 * time.Second):
		Fail("nobody read the pings channel for 10 s: WatchPings should c.Watch(source.Channel(pings, ...))")
	case <-ctx.Done():
		Fail("the spec ended while sending a ping")
	}
}
