package mirror_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	mirror "workshop.local/lessons/07-controller"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 1: a level-based, idempotent Reconciler", harness.Exercise(1), func() {
	var (
		source, teamA, teamB string
		writes               *harness.RequestLog
		reconciler           *mirror.MirrorReconciler
	)

	BeforeEach(func(ctx SpecContext) {
		source = cluster.Namespace(ctx, prefix)
		teamA = cluster.Namespace(ctx, prefix)
		teamB = cluster.Namespace(ctx, prefix)
		writes = &harness.RequestLog{}
		// The specs call Reconcile themselves, with a client that reads from the API server:
		// no controller, no cache, no waiting.
		reconciler = &mirror.MirrorReconciler{Client: directClient(writes.Watching(cluster.Config))}
	})

	// reconcileOnce calls Reconcile for source/name and expects it to succeed with nothing
	// left to retry.
	reconcileOnce := func(ctx SpecContext, name string) {
		GinkgoHelper()
		result, err := reconciler.Reconcile(ctx, reconcile.Request{NamespacedName: key(source, name)})
		Expect(err).NotTo(HaveOccurred(), "Reconcile of %s/%s failed", source, name)
		Expect(result).To(Equal(reconcile.Result{}), "Reconcile should have nothing to come back for")
	}

	It("creates a mirror in every target namespace", func(ctx SpecContext) {
		settings := configMap(source, "settings", teamA+", "+teamB, map[string]string{"greeting": "hello"})
		settings.BinaryData = map[string][]byte{"logo": {1, 2, 3}}
		create(ctx, settings)
		reconcileOnce(ctx, "settings")
		for _, ns := range []string{teamA, teamB} {
			got := get(ctx, ns, "settings")
			Expect(got).NotTo(BeNil(), "no ConfigMap settings in %s: Reconcile should create a mirror in every namespace the annotation lists", ns)
			Expect(got.Data).To(Equal(map[string]string{"greeting": "hello"}), "the mirror in %s should hold the source's data", ns)
			Expect(got.BinaryData).To(Equal(settings.BinaryData), "the mirror in %s should hold the source's binary data too (BinaryData, a ConfigMap's second data field)", ns)
			Expect(got.Annotations).To(HaveKeyWithValue(mirror.MirrorOfAnnotation, source+"/settings"), "create the mirror from Desired(source, namespace): it says whose mirror it is")
		}
	}, SpecTimeout(harness.Timeout))

	It("sends no write at all when the mirrors already match", func(ctx SpecContext) {
		create(ctx, configMap(source, "settings", teamA+","+teamB, map[string]string{"greeting": "hello"}))
		reconcileOnce(ctx, "settings")
		Expect(get(ctx, teamA, "settings")).NotTo(BeNil(), "the first Reconcile should have created the mirror in %s", teamA)

		writes.Reset()
		reconcileOnce(ctx, "settings")
		reconcileOnce(ctx, "settings")
		Expect(writes.Writes()).To(BeEmpty(), "Reconcile wrote although nothing had changed: compare what is there with what should be, and write only the difference (the API server stores nothing for an update that changes nothing, but it still has to decode, admit and compare every such request)")
	}, SpecTimeout(harness.Timeout))

	It("updates the mirrors when the source changes, and only those that differ", func(ctx SpecContext) {
		settings := configMap(source, "settings", teamA+","+teamB, map[string]string{"greeting": "hello", "colour": "blue"})
		settings.BinaryData = map[string][]byte{"logo": {1, 2, 3}}
		create(ctx, settings)
		reconcileOnce(ctx, "settings")

		// The source changes: a value, a key removed, and the binary data.
		change(ctx, key(source, "settings"), func(cm *corev1.ConfigMap) {
			cm.Data["greeting"] = "bonjour"
			delete(cm.Data, "colour")
			cm.BinaryData["logo"] = []byte{4, 5, 6}
		})
		reconcileOnce(ctx, "settings")
		for _, ns := range []string{teamA, teamB} {
			got := get(ctx, ns, "settings")
			Expect(got.Data).To(Equal(map[string]string{"greeting": "bonjour"}), "the source's data changed (a value changed, a key was removed): the mirror in %s should hold exactly the source's data; replace its Data, do not merge into it", ns)
			Expect(got.BinaryData).To(Equal(map[string][]byte{"logo": {4, 5, 6}}), "the source's binary data changed: the mirror in %s should hold it too (set BinaryData as well as Data)", ns)
		}

		// Someone edits one mirror by hand: the next reconcile puts it back, whatever event
		// brought it (level-based: it looks at the state, not at what happened).
		// The same person labels the mirror, and another tool annotates it: neither is the
		// mirror's business.
		change(ctx, key(teamA, "settings"), func(cm *corev1.ConfigMap) {
			cm.Data["greeting"] = "tampered"
			cm.Labels = map[string]string{"team": "a"}
			cm.Annotations[reviewedBy] = "team-a"
		})
		writes.Reset()
		reconcileOnce(ctx, "settings")
		restored := get(ctx, teamA, "settings")
		Expect(restored.Data).To(HaveKeyWithValue("greeting", "bonjour"), "a mirror edited by hand should be set back to the source's data")
		Expect(restored.Labels).To(HaveKeyWithValue("team", "a"), "the update wiped a label someone put on the mirror: update a copy of the mirror you read (it keeps its other fields and its resourceVersion), not a new object")
		Expect(restored.Annotations).To(HaveKeyWithValue(reviewedBy, "team-a"), "the update wiped an annotation another tool put on the mirror: change only the mirror's Data and BinaryData, not its annotations")
		Expect(restored.Annotations).To(HaveKeyWithValue(mirror.MirrorOfAnnotation, source+"/settings"), "the mirror lost %s", mirror.MirrorOfAnnotation)
		Expect(writes.Writes()).To(HaveLen(1), "only the edited mirror differed, so one write was needed; Reconcile sent %v", writes.Writes())
	}, SpecTimeout(harness.Timeout))

	It("ends quietly, with no error, when the source no longer exists", func(ctx SpecContext) {
		result, err := reconciler.Reconcile(ctx, reconcile.Request{NamespacedName: key(source, "deleted-meanwhile")})
		Expect(err).NotTo(HaveOccurred(), "a request for a ConfigMap that does not exist is normal (deleted after the event was queued): return no error, or the controller retries it for ever (apierrors.IsNotFound, or client.IgnoreNotFound)")
		Expect(result).To(Equal(reconcile.Result{}))
		Expect(writes.Writes()).To(BeEmpty())
	}, SpecTimeout(harness.Timeout))

	It("writes nothing for a ConfigMap without the annotation", func(ctx SpecContext) {
		create(ctx, configMap(source, "plain", "", map[string]string{"k": "v"}))
		writes.Reset()
		reconcileOnce(ctx, "plain")
		Expect(writes.Writes()).To(BeEmpty(), "a ConfigMap without %s asks for no mirror", mirror.MirrorToAnnotation)
	}, SpecTimeout(harness.Timeout))

	It("leaves alone a ConfigMap of the same name that is not its mirror", func(ctx SpecContext) {
		create(ctx, configMap(teamA, "settings", "", map[string]string{"owner": "team-a"}))
		create(ctx, configMap(source, "settings", teamA+","+teamB, map[string]string{"greeting": "hello"}))
		writes.Reset()
		reconcileOnce(ctx, "settings")
		Expect(get(ctx, teamA, "settings").Data).To(Equal(map[string]string{"owner": "team-a"}), "%s/settings belongs to someone else (no %s): never overwrite it", teamA, mirror.MirrorOfAnnotation)
		Expect(get(ctx, teamB, "settings")).NotTo(BeNil(), "a ConfigMap in the way in one namespace should not stop the mirror in the others")
		Expect(writes.Writes()).To(HaveLen(1), "one write was needed (the mirror in %s); Reconcile sent %v", teamB, writes.Writes())
	}, SpecTimeout(harness.Timeout))

	It("skips a target namespace that does not exist, and mirrors into the others", func(ctx SpecContext) {
		missing := prefix + "-missing-" + teamA // a name nobody creates
		create(ctx, configMap(source, "settings", missing+","+teamA, map[string]string{"greeting": "hello"}))
		reconcileOnce(ctx, "settings")
		Expect(get(ctx, teamA, "settings")).NotTo(BeNil(), "a missing namespace in the list should not stop the mirror in the others")
	}, SpecTimeout(harness.Timeout))

	// The API server answers 500 to the one request a failure names (the request never reaches
	// it): a controller must tell "not there" (NotFound) from "could not ask".
	DescribeTable("returns the error when the API server fails, so that the controller retries",
		func(ctx SpecContext, fails func(method, path string) bool, afterAChange bool, why string) {
			create(ctx, configMap(source, "settings", teamA, map[string]string{"greeting": "hello"}))
			if afterAChange {
				reconcileOnce(ctx, "settings")
				change(ctx, key(source, "settings"), func(cm *corev1.ConfigMap) { cm.Data["greeting"] = "bonjour" })
			}
			broken := &mirror.MirrorReconciler{Client: directClient(failing(cluster.Config, fails))}
			_, err := broken.Reconcile(ctx, reconcile.Request{NamespacedName: key(source, "settings")})
			Expect(err).To(Satisfy(apierrors.IsInternalError), why)
		},
		Entry("reading the source",
			func(method, path string) bool {
				return method == http.MethodGet && path == configMapPath(source, "settings")
			}, false,
			"reading the source failed with a server error, not NotFound: return that error, so the controller retries; only NotFound means the source is gone (client.IgnoreNotFound lets every other error through)",
			SpecTimeout(harness.Timeout)),
		Entry("reading a mirror",
			func(method, path string) bool {
				return method == http.MethodGet && path == configMapPath(teamA, "settings")
			}, false,
			"reading the mirror failed with a server error: return it; only NotFound means there is no mirror, any other error means you do not know (do not create, do not skip the namespace)",
			SpecTimeout(harness.Timeout)),
		Entry("creating a mirror",
			func(method, path string) bool { return method == http.MethodPost && path == configMapPath(teamA, "") }, false,
			"creating the mirror failed with a server error: return it; only a NotFound from Create (the namespace does not exist) may be skipped",
			SpecTimeout(harness.Timeout)),
		Entry("updating a mirror",
			func(method, path string) bool {
				return (method == http.MethodPut || method == http.MethodPatch) && path == configMapPath(teamA, "settings")
			}, true,
			"updating the mirror failed with a server error: return it, so the controller retries",
			SpecTimeout(harness.Timeout)),
	)

	// Why the mirrors carry MirrorOfAnnotation rather than an owner reference to their source.
	It("is what keeps a mirror alive: an owner reference across namespaces gets it deleted by the garbage collector", func(ctx SpecContext) {
		settings := create(ctx, configMap(source, "settings", teamA, map[string]string{"greeting": "hello"}))
		reconcileOnce(ctx, "settings")
		Expect(get(ctx, teamA, "settings")).NotTo(BeNil(), "Reconcile should have created the mirror in %s", teamA)

		// An owner reference has no namespace field. The API server checks its apiVersion,
		// kind, name and uid, not where the owner lives: this update is accepted.
		change(ctx, key(teamA, "settings"), func(cm *corev1.ConfigMap) {
			cm.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: settings.Name, UID: settings.UID}}
		})
		// The garbage collector looks for a namespaced owner in the dependent's own namespace.
		// The garbage collector is shared by the whole cluster: give it longer than the default.
		Eventually(eventReasons(ctx, teamA, "settings")).WithContext(ctx).WithTimeout(gcTimeout).Should(ContainElement(invalidNamespaceReason),
			"the garbage collector should record an %s event on the mirror: its owner is in another namespace", invalidNamespaceReason)
		Eventually(func() *corev1.ConfigMap { return get(ctx, teamA, "settings") }).WithContext(ctx).WithTimeout(gcTimeout).Should(BeNil(),
			"the garbage collector found no owner with that uid in %s, so it should delete the mirror, although its source exists", teamA)
		Expect(get(ctx, source, "settings")).NotTo(BeNil(), "the source itself is untouched")

		// Level-based: the next reconcile finds the mirror missing and makes it again.
		reconcileOnce(ctx, "settings")
		again := get(ctx, teamA, "settings")
		Expect(again).NotTo(BeNil(), "the mirror in %s was deleted: the next Reconcile should create it again", teamA)
		Expect(again.OwnerReferences).To(BeEmpty(), "create the mirror from Desired(source, namespace), which has no owner reference")
	}, SpecTimeout(harness.Timeout))
})
