package managers_test

import (
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	managers "workshop.local/lessons/06-manager"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 1: a Manager for one namespace", harness.Exercise(1), func() {
	var watched map[string]string // the label your cache selects ConfigMaps by

	BeforeEach(func() {
		watched = map[string]string{managers.WatchedLabel: "true"}
	})

	It("caches the labelled ConfigMaps of its namespace, and nothing else", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson06")
		other := cluster.Namespace(ctx, "lesson06")
		createConfigMap(ctx, ns, "watched", "1", watched)
		createConfigMap(ctx, ns, "unlabelled", "1", nil)
		createConfigMap(ctx, ns, "not-watched", "1", map[string]string{managers.WatchedLabel: "false"})
		createConfigMap(ctx, other, "watched-elsewhere", "1", watched)

		mgr, err := managers.NewManager(cluster.Config, ns)
		Expect(err).NotTo(HaveOccurred())
		harness.StartManager(ctx, mgr)

		var list corev1.ConfigMapList
		Expect(mgr.GetClient().List(ctx, &list)).To(Succeed())
		Expect(keys(list.Items)).NotTo(ContainElement(ns+"/not-watched"),
			"the cache holds the ConfigMap labelled %s=false: your selector tests that the label exists, not that its value is \"true\"", managers.WatchedLabel)
		Expect(keys(list.Items)).To(ConsistOf(ns+"/watched"),
			"the cache should hold only the ConfigMaps of namespace %s labelled %s=true: limit the cache to the namespace, and ConfigMaps (only them) with a label selector", ns, managers.WatchedLabel)

		err = mgr.GetClient().Get(ctx, client.ObjectKey{Namespace: ns, Name: "unlabelled"}, &corev1.ConfigMap{})
		Expect(apierrors.IsNotFound(err)).To(BeTrue(),
			"the ConfigMap %s/unlabelled exists, but a cache with your label selector never saw it: Get through the manager's client should say NotFound, got %v", ns, err)
		_, err = cluster.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, "unlabelled", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred(), "the API server, unlike the cache, has it")
	}, SpecTimeout(harness.Timeout))

	It("filters only ConfigMaps by label: other kinds of its namespace are all cached", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson06")
		other := cluster.Namespace(ctx, "lesson06")
		for _, where := range []string{ns, other} {
			_, err := cluster.Clientset.CoreV1().Secrets(where).Create(ctx, &corev1.Secret{
				ObjectMeta: metav1.ObjectMeta{Name: "plain"}, StringData: map[string]string{"value": "1"},
			}, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())
		}

		mgr, err := managers.NewManager(cluster.Config, ns)
		Expect(err).NotTo(HaveOccurred())
		harness.StartManager(ctx, mgr)

		var list corev1.SecretList
		Expect(mgr.GetClient().List(ctx, &list)).To(Succeed())
		Expect(keys(list.Items)).To(ConsistOf(ns+"/plain"),
			"the cache should hold the unlabelled Secret of namespace %s and no Secret of another namespace: put the label selector on ConfigMaps only (ByObject), not on every kind (DefaultLabelSelector, or a LabelSelector in the namespace's cache.Config)", ns)
	}, SpecTimeout(harness.Timeout))

	It("has a Scheme of its own that knows every built-in kind", func() {
		mgr, err := managers.NewManager(cluster.Config, "default")
		Expect(err).NotTo(HaveOccurred())
		Expect(mgr.GetScheme()).NotTo(BeIdenticalTo(clientgoscheme.Scheme),
			"the manager uses client-go's global scheme.Scheme, which every package of the process shares: give it a new Scheme of its own")
		builtIn := runtime.NewScheme()
		Expect(clientgoscheme.AddToScheme(builtIn)).To(Succeed())
		Expect(unknownKinds(mgr.GetScheme(), builtIn)).To(BeEmpty(),
			"the manager's Scheme does not know these built-in kinds (of the %d client-go registers), so its client could not read or write them: add all of client-go's types, not one group", len(builtIn.AllKnownTypes()))
	})

	It("runs beside another manager in the same process: no fixed ports", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson06")
		first, err := managers.NewManager(cluster.Config, ns)
		Expect(err).NotTo(HaveOccurred())
		second, err := managers.NewManager(cluster.Config, ns)
		Expect(err).NotTo(HaveOccurred())

		stopFirst := harness.StartManager(ctx, first)
		stopSecond := harness.StartManager(ctx, second)
		// A port the first manager holds makes the second one's server fail as it starts, and
		// the second manager then stops by itself, maybe only just after its cache synced:
		// watch both for a moment before judging.
		Consistently(func() bool { return harness.Running(first) && harness.Running(second) }).
			WithContext(ctx).WithTimeout(time.Second).Should(BeTrue(),
			"one of two managers from NewManager stopped by itself: does each bind a fixed port? The metrics server binds :8080 unless its BindAddress says otherwise: switch it off (\"0\")")
		for _, stop := range []func() error{stopFirst, stopSecond} {
			Expect(stop()).To(Succeed(),
				"two managers from NewManager could not run side by side: does each bind a fixed port? The metrics server binds :8080 unless its BindAddress says otherwise: switch it off (\"0\")")
		}
	}, SpecTimeout(harness.Timeout))
})

// unknownKinds returns the API kinds (group/version, Kind=...) of k8s.io/api that reference
// knows and scheme does not, the first few of them, sorted. Lists, options and internal
// versions are left out: they come with their kinds.
func unknownKinds(scheme, reference *runtime.Scheme) []string {
	var missing []string
	for gvk, t := range reference.AllKnownTypes() {
		if !strings.HasPrefix(t.PkgPath(), "k8s.io/api/") || strings.HasSuffix(gvk.Kind, "List") {
			continue
		}
		if !scheme.Recognizes(gvk) {
			missing = append(missing, gvk.String())
		}
	}
	slices.Sort(missing)
	return missing[:min(len(missing), 5)]
}
