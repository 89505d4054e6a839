package mirror_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"

	mirror "workshop.local/lessons/07-controller"
	"workshop.local/lessons/internal/harness"
)

// dropsAll is the failure message when WantsMirror drops even the events it exists for.
const dropsAll = "WantsMirror dropped an event it should let through (an annotated ConfigMap created, or its data changed): is exercise 2 still the stub?"

// passOrDrop is the failure message for a create, delete or generic event that WantsMirror
// handled wrongly.
func passOrDrop(kind string, want bool) string {
	if want {
		return "a " + kind + " event of an annotated ConfigMap should pass: the mirrors have work to do"
	}
	return "a " + kind + " event of a ConfigMap without the annotation should be dropped (a nil func in predicate.TypedFuncs lets its events through)"
}

var _ = Describe("Exercise 2: source.Kind, event handlers and predicates", harness.Exercise(2), func() {
	Describe("WantsMirror", func() {
		annotated := func(to string, data map[string]string) *corev1.ConfigMap {
			cm := configMap("ns", "cm", to, data)
			cm.Labels = map[string]string{"app": "web"}
			return cm
		}
		plain := annotated("", map[string]string{"k": "v"})
		wanted := annotated("team-a", map[string]string{"k": "v"})
		with := func(cm *corev1.ConfigMap, edit func(*corev1.ConfigMap)) *corev1.ConfigMap {
			cm = cm.DeepCopy()
			edit(cm)
			return cm
		}

		DescribeTable("create, delete and generic events pass for annotated ConfigMaps only",
			func(cm *corev1.ConfigMap, want bool) {
				p := mirror.WantsMirror()
				// A predicate that drops everything "drops the right events" too: make sure it
				// is a filter, not a wall.
				Expect(p.Create(event.TypedCreateEvent[*corev1.ConfigMap]{Object: wanted})).To(BeTrue(), dropsAll)
				Expect(p.Create(event.TypedCreateEvent[*corev1.ConfigMap]{Object: cm})).To(Equal(want), passOrDrop("create", want))
				Expect(p.Delete(event.TypedDeleteEvent[*corev1.ConfigMap]{Object: cm})).To(Equal(want), passOrDrop("delete", want))
				Expect(p.Generic(event.TypedGenericEvent[*corev1.ConfigMap]{Object: cm})).To(Equal(want), passOrDrop("generic", want))
			},
			Entry("a ConfigMap with the annotation", wanted, true),
			Entry("a ConfigMap without it: nothing to mirror", plain, false),
		)

		DescribeTable("update events pass only when something a mirror depends on changed",
			func(old, new *corev1.ConfigMap, want bool, why string) {
				p := mirror.WantsMirror()
				dataChanged := with(wanted, func(cm *corev1.ConfigMap) { cm.Data["k"] = "changed" })
				Expect(p.Update(event.TypedUpdateEvent[*corev1.ConfigMap]{ObjectOld: wanted, ObjectNew: dataChanged})).To(BeTrue(), dropsAll)
				got := p.Update(event.TypedUpdateEvent[*corev1.ConfigMap]{ObjectOld: old, ObjectNew: new})
				Expect(got).To(Equal(want), why)
			},
			Entry("data changed", wanted, with(wanted, func(cm *corev1.ConfigMap) { cm.Data["k"] = "w" }), true,
				"the data changed, so the mirrors must change: let the update through"),
			Entry("binary data added", wanted, with(wanted, func(cm *corev1.ConfigMap) { cm.BinaryData = map[string][]byte{"b": {1}} }), true,
				"BinaryData is copied to the mirrors too: a change there must pass"),
			Entry("target list changed", wanted, with(wanted, func(cm *corev1.ConfigMap) { cm.Annotations[mirror.MirrorToAnnotation] = "team-a,team-b" }), true,
				"a new target namespace needs a mirror: a change of the annotation's value must pass"),
			Entry("annotation removed", wanted, with(wanted, func(cm *corev1.ConfigMap) { delete(cm.Annotations, mirror.MirrorToAnnotation) }), true,
				"the annotation was removed: that is a change of what to mirror (look at the old object too, not only the new one)"),
			Entry("annotation added", plain, with(plain, func(cm *corev1.ConfigMap) { cm.Annotations = map[string]string{mirror.MirrorToAnnotation: "team-a"} }), true,
				"the annotation was added: now there is something to mirror"),
			Entry("only a label changed", wanted, with(wanted, func(cm *corev1.ConfigMap) { cm.Labels["app"] = "api" }), false,
				"labels are not mirrored: an update that only changes a label should be dropped"),
			Entry("only another annotation changed", wanted, with(wanted, func(cm *corev1.ConfigMap) { cm.Annotations["note"] = "x" }), false,
				"other annotations are not mirrored: such an update should be dropped"),
			Entry("nothing changed (a resync)", wanted, wanted.DeepCopy(), false,
				"nothing a mirror depends on changed (an informer's resync delivers such updates): drop it"),
			Entry("data changed on a ConfigMap without the annotation", plain, with(plain, func(cm *corev1.ConfigMap) { cm.Data["k"] = "w" }), false,
				"neither the old nor the new ConfigMap asks for a mirror: drop the update"),
		)
	})

	Describe("NewMirrorController", func() {
		It("reconciles annotated ConfigMaps, and only when something a mirror depends on changes", func(ctx SpecContext) {
			ns := cluster.Namespace(ctx, prefix)
			mgr := newManager(cluster.Config, ns)
			rec := harness.RecordReconciles(nil)
			c, err := mirror.NewMirrorController(mgr, rec)
			Expect(err).NotTo(HaveOccurred(), "NewMirrorController failed")
			Expect(c).NotTo(BeNil(), "NewMirrorController should return the controller it made")
			harness.StartManager(ctx, mgr)

			create(ctx, configMap(ns, "settings", "team-a", map[string]string{"k": "v"}))
			Eventually(rec.Keys).WithContext(ctx).Should(ContainElement(ns+"/settings"),
				"creating an annotated ConfigMap should reconcile it: c.Watch(source.Kind(mgr.GetCache(), &corev1.ConfigMap{}, a handler that enqueues the object, WantsMirror()))")

			// Events the controller has no work for. The informer delivers events in order, and
			// the queue hands out requests of equal priority first in, first out; so once the
			// marker below has been reconciled, any request these had made would have been too.
			create(ctx, configMap(ns, "unrelated", "", map[string]string{"k": "v"}))
			change(ctx, key(ns, "settings"), func(cm *corev1.ConfigMap) { cm.Labels = map[string]string{"touched": "yes"} })
			create(ctx, configMap(ns, "marker", "team-a", nil))
			Eventually(rec.Keys).WithContext(ctx).Should(ContainElement(ns+"/marker"), "the annotated ConfigMap marker was never reconciled")
			Expect(rec.Keys()).To(ConsistOf(ns+"/settings", ns+"/marker"), "only annotated ConfigMaps should reach the reconciler: pass WantsMirror() to source.Kind")
			Expect(rec.StartedFor(key(ns, "settings"))).To(Equal(1), "changing only a label of settings reconciled it again: WantsMirror() should drop that update")

			change(ctx, key(ns, "settings"), func(cm *corev1.ConfigMap) { cm.Data["k"] = "w" })
			Eventually(func() int { return rec.StartedFor(key(ns, "settings")) }).WithContext(ctx).Should(Equal(2),
				"changing the data of settings should reconcile it again")
		}, SpecTimeout(harness.Timeout))
	})
})
