package observe_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

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

// builderKeys are the keys the Builder's logger puts on every line of a controller, besides
// contextKeys: describe leaves them all out, to show what a line added itself.
var builderKeys = []string{"controllerGroup", "controllerKind", "ConfigMap"}

// describe prints lines for a failure message: each one's message, V-level and the keys it
// added to the context's.
func describe(lines []record) string {
	if len(lines) == 0 {
		return "no line"
	}
	var out []string
	for _, line := range lines {
		var keys []string
		for k := range line.Values {
			if !slices.Contains(contextKeys, k) && !slices.Contains(builderKeys, k) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		kind := fmt.Sprintf("V(%d)", line.Level)
		if line.IsError {
			kind = "error"
		}
		out = append(out, fmt.Sprintf("%q at %s with the keys [%s]", line.Msg, kind, strings.Join(keys, " ")))
	}
	return strings.Join(out, "; ")
}

// first returns the first of lines, or "" when there is none.
func first(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return lines[0]
}

var _ = Describe("Exercise 1: structured, contextual logs", harness.Exercise(1), func() {
	It("logs each publication once, at V(1), through the Reconcile's logger, with key/values", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "settings", 4)
		r := setup(ns, newStore(), 1, harness.FastRateLimiter(), nil)
		r.start(ctx)
		Eventually(func() []string { return r.store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(),
			"every ConfigMap of the namespace should reach the store within %s; these never did", settle)

		messages := map[string]bool{}
		for _, cm := range cms {
			key := types.NamespacedName{Namespace: ns, Name: cm.Name}
			calls := r.calls.For(key)
			Expect(calls).NotTo(BeEmpty(), "no Reconcile of %s ended, yet the store has it", key)
			call := calls[len(calls)-1]
			Expect(call.Err).NotTo(HaveOccurred(), "the Reconcile of %s that published it returned an error", key)
			lines := ownInfoLines(r.book, call.ReconcileID)
			var published []record
			for _, line := range lines {
				if _, ok := line.Values["resourceVersion"]; ok {
					published = append(published, line)
				}
			}
			if len(lines) == 0 {
				Fail(fmt.Sprintf("the Reconcile that published %s logged no line with its reconcileID (%s) through the manager's logger: "+
					"only the logger in the Reconcile's context carries the call's keys; lines of any other logger (a global one, one of its own) cannot be found by call", key, call.ReconcileID))
			}
			Expect(published).To(HaveLen(1), "the Reconcile that published %s logged %s: one line with the key \"resourceVersion\" (and \"keys\") was expected", key, describe(lines))
			line := published[0]
			Expect(line.Level).To(Equal(1), "the Reconcile that published %s logged %s: a line per object per reconcile is routine and belongs at V(1), which a logger at verbosity 0 (production) leaves out", key, describe(published))
			for _, k := range contextKeys {
				Expect(line.Values).To(HaveKey(k), "the published line of %s has no key %q: the logger controller-runtime puts in the Reconcile's context carries %s", key, k, strings.Join(contextKeys, ", "))
			}
			Expect(line.Values["name"]).To(Equal(cm.Name), "the published line of %s has the key \"name\" %v: the context's logger names the object reconciled", key, line.Values["name"])
			Expect(fmtValue(line.Values["resourceVersion"])).To(Equal(cm.ResourceVersion), "\"resourceVersion\" on the published line of %s is %v; the ConfigMap published has %s", key, line.Values["resourceVersion"], cm.ResourceVersion)
			Expect(line.Values).To(HaveKey("keys"), "the Reconcile that published %s logged %s: the key \"keys\" (how many keys its data has) was expected too", key, describe(published))
			Expect(fmtValue(line.Values["keys"])).To(Equal(fmtValue(len(cm.Data))), "\"keys\" on the published line of %s is %v; its data has %d keys", key, line.Values["keys"], len(cm.Data))
			Expect(line.Msg).NotTo(Or(ContainSubstring(cm.Name), ContainSubstring(cm.ResourceVersion)),
				"the published line's message %q names the object or its resourceVersion: every ConfigMap then logs a message of its own, which a log store cannot count or group; what varies belongs in key/values", line.Msg)
			messages[line.Msg] = true
			for _, other := range lines {
				Expect(other.Level).To(BeNumerically(">=", 1), "the Reconcile that published %s logged %q at V(0): a Reconcile that succeeds writes nothing at V(0), the level controller-runtime's zap logger writes in production and development mode alike", key, other.Msg)
			}
		}
		Expect(messages).To(HaveLen(1), "the published lines of %d ConfigMaps have %d different messages: the message should be the same for every object, what differs in key/values", len(cms), len(messages))
	}, SpecTimeout(harness.Timeout))

	It("returns a failure, wrapped, and leaves its logging to controller-runtime: one error line per failed call", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "flaky", 2)
		store := newStore()
		store.failFirst = 2 // each key: two failures, then it works
		r := setup(ns, store, 1, harness.FastRateLimiter(), nil)
		r.start(ctx)
		// The first Reconcile of each ConfigMap met the store's failure: it must say so.
		for _, cm := range cms {
			key := types.NamespacedName{Namespace: ns, Name: cm.Name}
			Eventually(func() []reconcileCall { return r.calls.For(key) }).WithContext(ctx).WithTimeout(settle).ShouldNot(BeEmpty(),
				"no Reconcile of %s ended", key)
			Expect(r.calls.For(key)[0].Err).To(HaveOccurred(),
				"the store failed the first call for %s, and its Reconcile returned no error: controller-runtime counts the call as a success (or a requeue_after), logs no error and counts none, and tries the ConfigMap again only if the Result asks for it, without the rate limiter's backoff", key)
		}
		Eventually(func() []string { return store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(),
			"the store failed the first two calls of each ConfigMap, and these were never published: a Reconcile that fails should end with an error, so that controller-runtime retries it")

		for _, cm := range cms {
			key := types.NamespacedName{Namespace: ns, Name: cm.Name}
			failed := 0
			for _, call := range r.calls.For(key) {
				if call.Err == nil {
					continue
				}
				failed++
				Expect(errors.Is(call.Err, errStoreDown)).To(BeTrue(), "Reconcile returned %q, in which errors.Is no longer finds the store's error: the cause is lost when an error is turned into text", call.Err)
				errs := errorLines(r.book, call.ReconcileID)
				Expect(errs).To(HaveLen(1),
					"a failed Reconcile of %s wrote %d error lines (%s): controller-runtime writes one (\"Reconciler error\") for every error a Reconcile returns, so each failure is logged twice", key, len(errs), describe(errs))
				for _, line := range ownInfoLines(r.book, call.ReconcileID) {
					Expect(line.Level).To(BeNumerically(">=", 1), "a failed Reconcile of %s logged %q at V(0): the error line controller-runtime writes is the one an operator needs", key, line.Msg)
				}
			}
			Expect(failed).To(BeNumerically(">=", 2), "the store failed twice for %s, yet %d of its Reconciles returned an error", key, failed)
		}
		// A line written through klog's global logger (or anything else that prints to the
		// process's standard error) lands in the same pod log as controller-runtime's.
		stderr.Sync(ctx.Done())
		written := stderr.Lines(ns, errStoreDown.Error())
		Expect(written).To(BeEmpty(), "the store's failures were also written %d times to the process's standard error (klog's global logger, say), the first: %s; controller-runtime already logs each error a Reconcile returns, so each failure is logged twice", len(written), first(written))
	}, SpecTimeout(harness.Timeout))

	It("retries a ConfigMap it could not read: only NotFound means it is gone", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "unread", 2)
		readErr := apierrors.NewServiceUnavailable("the cache is not ready")
		r := setupReading(ns, newStore(), 1, harness.FastRateLimiter(), nil, func(inner client.Reader) client.Reader {
			return &failingReader{Reader: inner, err: readErr}
		})
		r.start(ctx)
		for _, cm := range cms {
			key := types.NamespacedName{Namespace: ns, Name: cm.Name}
			Eventually(func() []reconcileCall { return r.calls.For(key) }).WithContext(ctx).WithTimeout(settle).ShouldNot(BeEmpty(),
				"no Reconcile of %s ended", key)
			Expect(r.calls.For(key)[0].Err).To(HaveOccurred(),
				"reading %s failed with %q, and its Reconcile returned no error: the ConfigMap may well exist, and is not retried unless the Result asks for it; only NotFound means a ConfigMap is gone", key, readErr)
		}
		Eventually(func() []string { return r.store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(),
			"the first read of each ConfigMap failed (503, not NotFound) and these were never published: a ConfigMap that could not be read may well exist; its Reconcile should end with an error, so that controller-runtime retries it")
	}, SpecTimeout(harness.Timeout))

	It("takes a ConfigMap that is gone calmly: no error, no error line", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		cms := createConfigMaps(ctx, ns, "short-lived", 1)
		r := setup(ns, newStore(), 1, harness.FastRateLimiter(), nil)
		r.start(ctx)
		key := types.NamespacedName{Namespace: ns, Name: cms[0].Name}
		Eventually(func() []string { return r.store.Unpublished(keysOf(cms)) }).WithContext(ctx).WithTimeout(settle).Should(BeEmpty(), "the ConfigMap never reached the store")
		before := len(r.calls.For(key))
		Expect(cluster.Clientset.CoreV1().ConfigMaps(ns).Delete(ctx, cms[0].Name, metav1.DeleteOptions{})).To(Succeed())
		Eventually(func() int { return len(r.calls.For(key)) }).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">", before),
			"deleting the ConfigMap should reconcile it once more")
		for _, call := range r.calls.For(key)[before:] {
			Expect(call.Err).NotTo(HaveOccurred(), "the Reconcile of %s after it was deleted returned %q: a ConfigMap that is gone has nothing to publish, and is no error", key, call.Err)
			errs := errorLines(r.book, call.ReconcileID)
			Expect(errs).To(BeEmpty(), "the Reconcile of %s after it was deleted logged %s: a ConfigMap that is gone is no error", key, describe(errs))
		}
	}, SpecTimeout(harness.Timeout))
})
