package scheme_test

import (
	"encoding/json"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"

	scheme "workshop.local/lessons/05-scheme"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 1: a Scheme with only core/v1, and its defaults", harness.Exercise(1), func() {
	var core *runtime.Scheme

	BeforeEach(func() {
		var err error
		core, err = scheme.NewCoreScheme()
		Expect(err).NotTo(HaveOccurred())
		Expect(core).NotTo(BeNil(), "NewCoreScheme returned no Scheme")
	})

	It("knows the kinds of core/v1, sorted, and no kind of another group", func() {
		kinds := scheme.KnownKinds(core, coreV1)
		Expect(kinds).To(ContainElements("Pod", "PodList", "ConfigMap", "Namespace", "Service"))
		Expect(kinds).To(ContainElements("ListOptions", "WatchEvent"), "core/v1's AddToScheme also registers the kinds every group version shares")
		Expect(slices.IsSorted(kinds)).To(BeTrue(), "KnownKinds should sort the kinds: map order changes from run to run")
		Expect(scheme.KnownKinds(core, appsv1.SchemeGroupVersion)).To(BeEmpty(), "a Scheme with core/v1 only knows no apps/v1 kind")
	})

	It("lists the kinds of the version asked for, not those of the group's other versions", func() {
		// autoscaling/v1 has the kind Scale; autoscaling/v2 has not.
		autoscaling := runtime.NewScheme()
		Expect(autoscalingv1.AddToScheme(autoscaling)).To(Succeed())
		Expect(autoscalingv2.AddToScheme(autoscaling)).To(Succeed())
		Expect(scheme.KnownKinds(autoscaling, autoscalingv1.SchemeGroupVersion)).To(ContainElements("HorizontalPodAutoscaler", "Scale"))
		v2 := scheme.KnownKinds(autoscaling, autoscalingv2.SchemeGroupVersion)
		Expect(v2).To(ContainElement("HorizontalPodAutoscaler"))
		Expect(v2).NotTo(ContainElement("Scale"),
			"a Scheme with autoscaling/v1 and autoscaling/v2, asked for the kinds of autoscaling/v2, listed Scale, which only autoscaling/v1 has: a version's kinds are its own, whatever the group's other versions hold")
		Expect(slices.Compact(slices.Clone(v2))).To(Equal(v2), "KnownKinds listed a kind more than once: a group version knows each of its kinds once")

		Expect(scheme.KnownKinds(clientgoscheme.Scheme, appsv1.SchemeGroupVersion)).NotTo(ContainElement("DeploymentRollback"),
			"client-go's scheme, asked for the kinds of apps/v1, listed DeploymentRollback, which of the apps versions only apps/v1beta1 has")
	})

	It("knows every kind the cluster serves in core/v1", func(ctx SpecContext) {
		known := scheme.KnownKinds(core, coreV1)
		for _, kind := range servedKinds(ctx, coreV1) {
			Expect(known).To(ContainElement(kind), "the cluster serves v1 %s, so core/v1's AddToScheme should have added it", kind)
		}
	}, SpecTimeout(harness.Timeout))

	It("knows none of the apps, batch and rbac kinds the cluster serves, which client-go's full scheme all knows", func(ctx SpecContext) {
		for _, gv := range []schema.GroupVersion{appsv1.SchemeGroupVersion, batchv1.SchemeGroupVersion, rbacv1.SchemeGroupVersion} {
			Expect(scheme.KnownKinds(core, gv)).To(BeEmpty(), "your core/v1 Scheme should know nothing of %s", gv)
			Expect(scheme.KnownKinds(clientgoscheme.Scheme, gv)).To(ContainElements(servedKinds(ctx, gv)),
				"client-go's scheme should know every kind the cluster serves in %s", gv)
		}
	}, SpecTimeout(harness.Timeout))

	It("fills in a Pod's restartPolicy, grace period and imagePullPolicy as the API server does", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson05")
		pod := unsetPod(ns)
		local := pod.DeepCopy()
		core.Default(local)
		expectDefaultedLikeServer(local, defaultedByServer(ctx, pod),
			"a Pod that leaves every one of these fields out (Default on your Scheme should call defaultPod)")

		untouched := pod.DeepCopy()
		clientgoscheme.Scheme.Default(untouched)
		Expect(untouched).To(Equal(pod), "client-go's scheme registers no defaulting function: only yours fills these in")
	}, SpecTimeout(harness.Timeout))

	It("keeps what a Pod sets, as the API server does: these defaults fill only empty fields", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson05")
		pod := unsetPod(ns)
		pod.Spec.RestartPolicy = corev1.RestartPolicyNever
		pod.Spec.TerminationGracePeriodSeconds = ptr.To[int64](0)
		pod.Spec.Containers[0].ImagePullPolicy = corev1.PullNever
		pod.Spec.InitContainers[0].ImagePullPolicy = corev1.PullNever
		local := pod.DeepCopy()
		core.Default(local)
		expectDefaultedLikeServer(local, defaultedByServer(ctx, pod),
			"a Pod that sets restartPolicy Never, a grace period of 0 and imagePullPolicy Never in its first container and first init container: a set field keeps its value")
	}, SpecTimeout(harness.Timeout))

	It("turns a negative grace period into 1 second, as the API server does", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson05")
		pod := unsetPod(ns)
		pod.Spec.TerminationGracePeriodSeconds = ptr.To[int64](-5)
		local := pod.DeepCopy()
		core.Default(local)
		expectDefaultedLikeServer(local, defaultedByServer(ctx, pod),
			"a Pod with a grace period of -5 s: the API server's Pod defaulting replaces a negative grace period (and only a negative one) with 1 s")
	}, SpecTimeout(harness.Timeout))

	It("defaults every Pod in a PodList, through Default and through a decoder that defaults", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson05")
		unset, set := unsetPod(ns), unsetPod(ns)
		set.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
		serverUnset := defaultedByServer(ctx, unset)
		list := &corev1.PodList{Items: []corev1.Pod{*unset.DeepCopy(), *set.DeepCopy()}}
		core.Default(list)
		Expect(list.Items).To(HaveLen(2))
		expectDefaultedLikeServer(&list.Items[0], serverUnset,
			"the first Pod of a PodList given to Default: Default looks a function up by the Go type it is given, *corev1.PodList, and that function must default the list's own Pods, not copies")
		expectDefaultedLikeServer(&list.Items[1], defaultedByServer(ctx, set),
			"the second Pod of a PodList given to Default")

		// A decoder for a version runs the Scheme's defaulting functions on what it decodes, the
		// way the API server does with a request's body.
		decoder := serializer.NewCodecFactory(core).UniversalDecoder(coreV1)
		obj, err := runtime.Decode(decoder, []byte(podListYAML))
		Expect(err).NotTo(HaveOccurred())
		Expect(obj).To(BeAssignableToTypeOf(&corev1.PodList{}))
		decoded := obj.(*corev1.PodList)
		Expect(decoded.Items).To(HaveLen(1))
		expectDefaultedLikeServer(&decoded.Items[0], serverUnset,
			"the Pod of a PodList manifest read through a decoder that defaults (UniversalDecoder): it defaults the list, by the list's own function")
	}, SpecTimeout(harness.Timeout))

	DescribeTable("finds the kind of a Go object by its type",
		func(obj runtime.Object, want schema.GroupVersionKind) {
			got, err := scheme.KindOf(core, obj)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "the kind of a %T", obj)
		},
		Entry("a Pod", &corev1.Pod{}, podKind),
		Entry("a list of ConfigMaps", &corev1.ConfigMapList{}, coreV1.WithKind("ConfigMapList")),
	)

	It("finds the kind of an object a typed client fetched, whose apiVersion and kind are empty", func(ctx SpecContext) {
		ns, err := cluster.Clientset.CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(ns.TypeMeta).To(BeZero(), "typed clients clear apiVersion and kind as they decode")

		got, err := scheme.KindOf(core, ns)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(kindOnTheWire(ctx, "/api/v1/namespaces/default")), "KindOf should agree with what the API server sends")
	}, SpecTimeout(harness.Timeout))

	It("says a Go type it does not know is not registered, a type client-go's full scheme knows", func() {
		_, err := scheme.KindOf(core, &appsv1.Deployment{})
		Expect(runtime.IsNotRegisteredError(err)).To(BeTrue(), "want an error for which runtime.IsNotRegisteredError is true, got %v", err)
		GinkgoWriter.Printf("KindOf(core/v1 only, *appsv1.Deployment): %v\n", err)

		got, err := scheme.KindOf(clientgoscheme.Scheme, &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(deployKind))
	})

	It("makes a new, empty object of a kind, with apiVersion and kind still empty", func() {
		obj, err := scheme.NewObject(core, podKind)
		Expect(err).NotTo(HaveOccurred())
		Expect(obj).To(Equal(&corev1.Pod{}), "NewObject(v1 Pod) should be an empty *corev1.Pod: the Scheme only makes a zero value of the type")

		obj, err = scheme.NewObject(clientgoscheme.Scheme, deployKind)
		Expect(err).NotTo(HaveOccurred())
		Expect(obj).To(BeAssignableToTypeOf(&appsv1.Deployment{}))
	})

	It("says a kind it does not know is not registered", func() {
		_, err := scheme.NewObject(core, deployKind)
		Expect(runtime.IsNotRegisteredError(err)).To(BeTrue(), "want an error for which runtime.IsNotRegisteredError is true, got %v", err)
		GinkgoWriter.Printf("NewObject(core/v1 only, apps/v1 Deployment): %v\n", err)
	})
})

// servedKinds lists the kinds of the resources the cluster serves in gv, subresources left out
// (deployments/scale serves autoscaling/v1 Scale, a kind of another group).
func servedKinds(ctx SpecContext, gv schema.GroupVersion) []string {
	GinkgoHelper()
	list, err := cluster.Clientset.Discovery().ServerResourcesForGroupVersionWithContext(ctx, gv.String())
	Expect(err).NotTo(HaveOccurred(), "discovery of %s", gv)
	var kinds []string
	for _, r := range list.APIResources {
		if !strings.Contains(r.Name, "/") {
			kinds = append(kinds, r.Kind)
		}
	}
	Expect(kinds).NotTo(BeEmpty(), "the cluster serves no kind in %s", gv)
	return kinds
}

// kindOnTheWire fetches the raw JSON at path and returns the kind the API server says it is.
func kindOnTheWire(ctx SpecContext, path string) schema.GroupVersionKind {
	GinkgoHelper()
	raw, err := cluster.Clientset.CoreV1().RESTClient().Get().AbsPath(path).DoRaw(ctx)
	Expect(err).NotTo(HaveOccurred())
	var typeMeta metav1.TypeMeta
	Expect(json.Unmarshal(raw, &typeMeta)).To(Succeed())
	return schema.FromAPIVersionAndKind(typeMeta.APIVersion, typeMeta.Kind)
}

// expectDefaultedLikeServer checks, field by field, that a Pod defaulted by your Scheme has the
// values the API server gave the same Pod.
func expectDefaultedLikeServer(local, server *corev1.Pod, which string) {
	GinkgoHelper()
	Expect(local.Spec.RestartPolicy).To(Equal(server.Spec.RestartPolicy), "spec.restartPolicy of %s", which)
	Expect(local.Spec.TerminationGracePeriodSeconds).To(Equal(server.Spec.TerminationGracePeriodSeconds),
		"spec.terminationGracePeriodSeconds of %s (a pointer: nil is not set, 0 is a value)", which)
	Expect(pullPolicies(local.Spec.Containers)).To(Equal(pullPolicies(server.Spec.Containers)),
		"the imagePullPolicy of each container of %s (images %v)", which, images(server.Spec.Containers))
	Expect(pullPolicies(local.Spec.InitContainers)).To(Equal(pullPolicies(server.Spec.InitContainers)),
		"the imagePullPolicy of each init container of %s (images %v): init containers pull images too", which, images(server.Spec.InitContainers))
}

func pullPolicies(containers []corev1.Container) []corev1.PullPolicy {
	var policies []corev1.PullPolicy
	for _, c := range containers {
		policies = append(policies, c.ImagePullPolicy)
	}
	return policies
}

func images(containers []corev1.Container) []string {
	var names []string
	for _, c := range containers {
		names = append(names, c.Image)
	}
	return names
}

// unsetPod is a Pod that leaves the defaulted fields empty, with images whose tags the
// imagePullPolicy default depends on: none (latest), 1.36, and none behind a registry's port;
// and two init containers, whose tags are none and 1.36.
func unsetPod(namespace string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "defaults"},
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{
				{Name: "fetch", Image: "busybox"},
				{Name: "migrate", Image: "busybox:1.36"},
			},
			Containers: []corev1.Container{
				{Name: "app", Image: "busybox"},
				{Name: "pinned", Image: "busybox:1.36"},
				{Name: "proxy", Image: "registry.local:5000/tools/proxy"},
			},
		},
	}
}

// podListYAML is a PodList manifest holding one Pod like unsetPod's.
const podListYAML = `
apiVersion: v1
kind: PodList
items:
- metadata:
    name: defaults
  spec:
    initContainers:
    - name: fetch
      image: busybox
    - name: migrate
      image: busybox:1.36
    containers:
    - name: app
      image: busybox
    - name: pinned
      image: busybox:1.36
    - name: proxy
      image: registry.local:5000/tools/proxy
`

// defaultedByServer sends pod to the API server in a dry run (nothing is stored) and returns
// the Pod as the server would have stored it, defaults filled in. A new namespace gets its
// default ServiceAccount a moment after it is made, and Pods are refused until then.
func defaultedByServer(ctx SpecContext, pod *corev1.Pod) *corev1.Pod {
	GinkgoHelper()
	var stored *corev1.Pod
	Eventually(func() error {
		var err error
		stored, err = cluster.Clientset.CoreV1().Pods(pod.Namespace).Create(ctx, pod.DeepCopy(), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err
	}).WithContext(ctx).Should(Succeed(), "the API server should accept the Pod in a dry run")
	return stored
}
