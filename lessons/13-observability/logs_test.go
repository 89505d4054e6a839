package observe_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"workshop.local/lessons/internal/harness"
)

// The keys controller-runtime puts on the logger of every Reconcile's context (the Builder's
// LogConstructor, pkg/builder/controller.go, and reconcileHandler, pkg/internal/controller).
var contextKeys = []string{"controller", "namespace", "name", "reconcileID"}

// ownInfoLines returns the lines a Reconcile call logged itself: those with its reconcileID, minus
// error lines (errorLines) and controller-runtime's own lines around the call (at V(5)).
func ownInfoLines(book *logBook, reconcileID string) []record {
	var own []record
	for _, r := range book.ForCall(reconcileID) {
		if !r.IsError && r.Level < 5 {
			own = append(own, r)
		}
	}
	return own
}

// errorLines returns the error lines with a Reconcile call's reconcileID.
func errorLines(book *logBook, reconcileID string) []record {
	var found []record
	for _, r := range book.ForCall(reconcileID) {
		if r.IsError {
			found = append(found, r)
		}
	}
	return found
}

var _ = Describe("Exercise 1: structured, contextual logs", harness.Exercise(1), func() {
	It("logs each publication once, at V(1), through the Reconcile's logger, with key/values", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "settings", 4)
		r := setup(ns, newStore(), 1, harness.FastRateLimiter(), nil)
		r.start(ctx)
		Eventually(func() []string { return r.store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(),
			"every ConfigMap should be published to the store: Reconcile reads it and calls p.publish")

		messages := map[string]bool{}
		for _, cm := range cms {
			key := types.NamespacedName{Namespace: ns, Name: cm.Name}
			calls := r.calls.For(key)
			Expect(calls).NotTo(BeEmpty())
			call := calls[len(calls)-1]
			Expect(call.Err).NotTo(HaveOccurred(), "the Reconcile of %s that published it should return no error", key)
			lines := ownInfoLines(r.book, call.ReconcileID)
			var published []record
			for _, line := range lines {
				if _, ok := line.Values["resourceVersion"]; ok {
					published = append(published, line)
				}
			}
			Expect(published).To(HaveLen(1), "the Reconcile that published %s should log exactly one line with the key \"resourceVersion\", through the logger of its context (log.FromContext(ctx)): lines of any other logger lack its reconcileID", key)
			line := published[0]
			Expect(line.Level).To(Equal(1), "the line that says %s was published is routine: log it at V(1) (log.V(1).Info), not at the default level", key)
			for _, k := range contextKeys {
				Expect(line.Values).To(HaveKey(k), "the published line should carry the key %q that controller-runtime put on the context's logger: log through log.FromContext(ctx)", k)
			}
			Expect(line.Values["name"]).To(Equal(cm.Name), "the context's logger names the object: log through log.FromContext(ctx)")
			Expect(fmtValue(line.Values["resourceVersion"])).To(Equal(cm.ResourceVersion), "\"resourceVersion\" should be the published ConfigMap's resourceVersion")
			Expect(fmtValue(line.Values["keys"])).To(Equal(fmtValue(len(cm.Data))), "\"keys\" should be the number of keys in the ConfigMap's data (%d)", len(cm.Data))
			Expect(line.Msg).NotTo(Or(ContainSubstring(cm.Name), ContainSubstring(cm.ResourceVersion)),
				"the message %q embeds the object's name or resourceVersion: keep the message constant and put what varies in key/values", line.Msg)
			messages[line.Msg] = true
			for _, other := range lines {
				Expect(other.Level).To(BeNumerically(">=", 1), "a Reconcile that succeeds should log nothing at the default level (V(0)); it logged %q", other.Msg)
			}
		}
		Expect(messages).To(HaveLen(1), "every ConfigMap's published line should have the same message; what differs belongs in key/values")
	}, SpecTimeout(harness.Timeout))

	It("returns a failure, wrapped, and leaves its logging to controller-runtime: one error line per failed call", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "flaky", 2)
		store := newStore()
		store.failFirst = 2 // each key: two failures, then it works
		r := setup(ns, store, 1, harness.FastRateLimiter(), nil)
		r.start(ctx)
		Eventually(func() []string { return store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(),
			"a ConfigMap whose publication failed should be retried until it is published: return the error from Reconcile, and controller-runtime retries it")

		for _, cm := range cms {
			key := types.NamespacedName{Namespace: ns, Name: cm.Name}
			failed := 0
			for _, call := range r.calls.For(key) {
				if call.Err == nil {
					continue
				}
				failed++
				Expect(errors.Is(call.Err, errStoreDown)).To(BeTrue(), "Reconcile returned %q: wrap the store's error with %%w, so errors.Is still finds it", call.Err)
				Expect(errorLines(r.book, call.ReconcileID)).To(HaveLen(1),
					"a failed Reconcile of %s was logged as an error more than once: controller-runtime logs every error Reconcile returns; return it, do not log it too", key)
				for _, line := range ownInfoLines(r.book, call.ReconcileID) {
					Expect(line.Level).To(BeNumerically(">=", 1), "a failed Reconcile logged %q at V(0): the error line controller-runtime writes is the one an operator needs", line.Msg)
				}
			}
			Expect(failed).To(BeNumerically(">=", 2), "the store failed twice for %s, so two Reconciles should have returned an error", key)
		}
	}, SpecTimeout(harness.Timeout))

	It("takes a ConfigMap that is gone calmly: no error, no error line", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "short-lived", 1)
		r := setup(ns, newStore(), 1, harness.FastRateLimiter(), nil)
		r.start(ctx)
		key := types.NamespacedName{Namespace: ns, Name: cms[0].Name}
		Eventually(func() []string { return r.store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(), "the ConfigMap should be published")
		before := len(r.calls.For(key))
		Expect(cluster.Clientset.CoreV1().ConfigMaps(ns).Delete(ctx, cms[0].Name, metav1.DeleteOptions{})).To(Succeed())
		Eventually(func() int { return len(r.calls.For(key)) }).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">", before),
			"deleting the ConfigMap should reconcile it once more")
		for _, call := range r.calls.For(key)[before:] {
			Expect(call.Err).NotTo(HaveOccurred(), "a ConfigMap that is gone has nothing to publish: return no error (apierrors.IsNotFound)")
			Expect(errorLines(r.book, call.ReconcileID)).To(BeEmpty(), "a ConfigMap that is gone is no error: log no error line")
		}
	}, SpecTimeout(harness.Timeout))
})
