package mirror_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	mirror "workshop.local/lessons/07-controller"
	"workshop.local/lessons/internal/harness"
)

// The whole controller, as controller.go assembles it from exercises 1 to 4. It is labelled
// exercise 4, the last piece it needs: it passes once the first four do.
var _ = Describe("Exercise 4: the whole mirror controller, as SetupMirror assembles it", harness.Exercise(4), func() {
	It("mirrors a source, into a namespace created later too, follows its changes, and repairs a mirror on a ping", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		target := cluster.Namespace(ctx, prefix)
		late, createLate := laterNamespace()

		opts := harness.ManagerOptions(ns)
		// The cache must hold the mirrors' namespaces too: the reconciler reads them from it.
		opts.Cache.DefaultNamespaces = map[string]cache.Config{ns: {}, target: {}, late: {}}
		mgr, err := manager.New(cluster.Config, opts)
		Expect(err).NotTo(HaveOccurred())
		pings := make(chan event.TypedGenericEvent[mirror.Ping])
		Expect(mirror.SetupMirror(ctx, mgr, pings)).To(Succeed(), "SetupMirror failed: one of exercises 1 to 4 returned an error")
		harness.StartManager(ctx, mgr)

		create(ctx, configMap(ns, "settings", target+", "+late, map[string]string{"color": "blue"}))
		Eventually(mirrorData(ctx, target)).WithContext(ctx).Should(HaveKeyWithValue("color", "blue"),
			"the source names %s: the controller should create its mirror there", target)

		createLate(ctx)
		Eventually(mirrorData(ctx, late)).WithContext(ctx).Should(HaveKeyWithValue("color", "blue"),
			"namespace %s was created after the source named it: the Namespace watch should bring the source back", late)

		change(ctx, key(ns, "settings"), func(cm *corev1.ConfigMap) { cm.Data["color"] = "green" })
		for _, namespace := range []string{target, late} {
			Eventually(mirrorData(ctx, namespace)).WithContext(ctx).Should(HaveKeyWithValue("color", "green"),
				"the source's data changed: the mirror in %s should follow", namespace)
		}

		// Nothing watches the mirrors: a hand edit brings no event. A ping does, once the cache the
		// reconciler reads has seen the edit (as it would have long before a real ping came).
		change(ctx, key(target, "settings"), func(cm *corev1.ConfigMap) { cm.Data["color"] = "edited by hand" })
		Eventually(func(g Gomega) string {
			var cached corev1.ConfigMap
			g.Expect(mgr.GetCache().Get(ctx, key(target, "settings"), &cached)).To(Succeed())
			return cached.Data["color"]
		}).WithContext(ctx).Should(Equal("edited by hand"))
		send(ctx, pings, mirror.Ping{Namespace: ns, Name: "settings"})
		Eventually(mirrorData(ctx, target)).WithContext(ctx).Should(HaveKeyWithValue("color", "green"),
			"a ping for the source should reconcile it, and the reconcile repair the mirror edited by hand")
	}, SpecTimeout(harness.Timeout))
})

// mirrorData reads the data of the mirror of "settings" in namespace (nil while there is none).
func mirrorData(ctx SpecContext, namespace string) func() map[string]string {
	return func() map[string]string {
		if cm := get(ctx, namespace, "settings"); cm != nil {
			return cm.Data
		}
		return nil
	}
}
