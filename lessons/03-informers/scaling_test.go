package informers_test

import (
	"context"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	informers "workshop.local/lessons/03-informers"
	"workshop.local/lessons/internal/harness"
)

// The counts below hold on any healthy cluster; how far above the minimum the update counts land
// depends on timing (see the README, exercise 5). Adds and deletes are exact.
var _ = Describe("Exercise 5: counting events while scaling", harness.Exercise(5), func() {
	Context("the handler, called by hand", func() {
		It("records typed adds, updates and deletes as \"<verb> <kind> <namespace>/<name>\"", func() {
			rec := &informers.Recorder{}
			pods := informers.RecordEvents[*corev1.Pod](rec, "Pod")
			web := samplePod("web-1", "node-a", "web")
			pods.OnAdd(web, true)
			pods.OnUpdate(web, web)
			pods.OnDelete(cache.DeletedObject[*corev1.Pod]{OptionalObj: web}) // what a watched deletion brings
			replicaSets := informers.RecordEvents[*appsv1.ReplicaSet](rec, "ReplicaSet")
			replicaSets.OnAdd(&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "web-7d9c"}}, false)
			Expect(rec.Events()).To(Equal([]string{"add Pod lesson03/web-1", "update Pod lesson03/web-1", "delete Pod lesson03/web-1", "add ReplicaSet team-b/web-7d9c"}))
		})

		It("records a tombstone under the key the cache held, whether or not it carries the object", func() {
			rec := &informers.Recorder{}
			pods := informers.RecordEvents[*corev1.Pod](rec, "Pod")
			stale := samplePod("stale", "node-a", "web")
			// What a type-safe informer hands over for a deletion that a relist found.
			deleteTombstone(pods, cache.DeletedObject[*corev1.Pod]{OptionalObj: stale, FinalStateUnknown: &cache.DeletedFinalStateUnknown{Key: "lesson03/stale", Obj: stale}})
			deleteTombstone(pods, cache.DeletedObject[*corev1.Pod]{FinalStateUnknown: &cache.DeletedFinalStateUnknown{Key: "lesson03/lost"}})
			Expect(rec.Events()).To(Equal([]string{"delete Pod lesson03/stale", "delete Pod lesson03/lost"}),
				"a tombstone's key is certain, its object is not: each deletion is recorded under the key the cache held")
		})
	})

	It("sees one ReplicaSet and three Pods come, and each change several times, when a Deployment scales from 1 to 3", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson03")
		rec := &informers.Recorder{}
		countDeploymentEvents(ctx, ns, rec)
		Expect(rec.Events()).To(BeEmpty(), "the namespace is empty when counting starts")

		createDeployment(ctx, ns, "web", 1)
		waitForDeployment(ctx, ns, "web", 1)
		scaleDeployment(ctx, ns, "web", 3)
		waitForDeployment(ctx, ns, "web", 3)

		Eventually(func(g Gomega) {
			g.Expect(rec.Count("add ReplicaSet ")).To(Equal(1), "scaling changes the ReplicaSet; it never makes a new one")
			g.Expect(rec.Count("add Pod ")).To(Equal(3), "one Pod per replica")
			g.Expect(rec.Count("delete ")).To(BeZero(), "scaling up deletes nothing")
			g.Expect(rec.Count("update ReplicaSet ")).To(BeNumerically(">=", 3), "status after the first Pod, new replicas, status after the new Pods")
			g.Expect(rec.Count("update Pod ")).To(BeNumerically(">=", 6), "each Pod is bound to a node, then reported ready")
		}).WithContext(ctx).Should(Succeed())
		reportCounts(rec)
	}, SpecTimeout(harness.Timeout))

	It("sees two Pods go, each updated before it is deleted, when a Deployment scales from 3 to 1", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson03")
		rec := &informers.Recorder{}
		countDeploymentEvents(ctx, ns, rec)
		Expect(rec.Events()).To(BeEmpty(), "the namespace is empty when counting starts")

		createDeployment(ctx, ns, "web", 3)
		waitForDeployment(ctx, ns, "web", 3)
		scaleDeployment(ctx, ns, "web", 1)
		waitForDeployment(ctx, ns, "web", 1)
		waitForPodCount(ctx, ns, "app=web", 1)

		Eventually(func(g Gomega) {
			g.Expect(rec.Count("add ReplicaSet ")).To(Equal(1))
			g.Expect(rec.Count("delete ReplicaSet ")).To(BeZero(), "scaling down keeps the ReplicaSet")
			g.Expect(rec.Count("add Pod ")).To(Equal(3))
			g.Expect(rec.Count("delete Pod ")).To(Equal(2), "two replicas fewer, two Pods deleted")
			g.Expect(rec.Count("update ReplicaSet ")).To(BeNumerically(">=", 3), "status after the Pods, new replicas, status after the deletions")
			g.Expect(rec.Count("update Pod ")).To(BeNumerically(">=", 8), "bound and ready for each Pod, then marked for deletion for two of them")
		}).WithContext(ctx).Should(Succeed())
		Expect(keysAfter(rec, "add Pod ")).To(ContainElements(keysAfter(rec, "delete Pod ")),
			"each delete should name a Pod that was added, under the same key (namespace/name)")
		reportCounts(rec)
	}, SpecTimeout(harness.Timeout))

	DescribeTable("returns only once both handlers have been told about what already exists",
		func(ctx SpecContext, slow string) {
			ns := cluster.Namespace(ctx, "lesson03")
			createStandaloneReplicaSet(ctx, ns, "standalone")
			createPod(ctx, pendingPod("loner", "web"), ns)
			createPod(ctx, pendingPod("stranger", "other"), ns)
			rec := &informers.Recorder{}
			held, release := informers.HoldRecords(rec, slow) // one handler is slow with its initial list
			DeferCleanup(release)

			returned := make(chan error, 1)
			go func() {
				defer GinkgoRecover()
				returned <- informers.CountDeploymentEvents(harness.Background(ctx), cluster.Clientset, ns, "app=web", rec)
			}()
			expectWaitingWhileHeld(ctx, "CountDeploymentEvents (with the handler that records \""+strings.TrimSpace(slow)+"\" slow)", held, returned)
			release()
			var err error
			Eventually(returned).WithContext(ctx).Should(Receive(&err), "CountDeploymentEvents should return once both handlers have finished their initial lists")
			Expect(err).NotTo(HaveOccurred())
			Expect(rec.Events()).To(ContainElements("add ReplicaSet "+ns+"/standalone", "add Pod "+ns+"/loner"))
			Expect(rec.Events()).NotTo(ContainElement(ContainSubstring("stranger")), "the Pod labelled app=other is outside the selection")
		},
		Entry("with a slow ReplicaSet handler", "add ReplicaSet ", SpecTimeout(harness.Timeout)),
		Entry("with a slow Pod handler", "add Pod ", SpecTimeout(harness.Timeout)),
	)
})

// deleteTombstone hands handler a tombstone, turning a panic into a failure that says why.
func deleteTombstone(handler cache.TypedResourceEventHandler[*corev1.Pod], tombstone cache.DeletedObject[*corev1.Pod]) {
	GinkgoHelper()
	defer func() {
		if r := recover(); r != nil {
			Fail(fmt.Sprintf("OnDelete panicked on a tombstone for %s (%v): a DeletedObject's OptionalObj may be stale or nil, only its key is certain",
				tombstone.FinalStateUnknown.Key, r))
		}
	}()
	handler.OnDelete(tombstone)
}

// countDeploymentEvents calls CountDeploymentEvents for the Pods and ReplicaSets labelled
// app=web in namespace.
func countDeploymentEvents(ctx context.Context, namespace string, rec *informers.Recorder) {
	GinkgoHelper()
	returnsWithin(ctx, "CountDeploymentEvents", startWithin, informersRun, func() (struct{}, error) {
		return struct{}{}, informers.CountDeploymentEvents(harness.Background(ctx), cluster.Clientset, namespace, "app=web", rec)
	})
}

// createStandaloneReplicaSet creates a ReplicaSet of no replicas labelled app=web, whose selector
// (app=web, role=<name>) matches no Pod this lesson makes.
func createStandaloneReplicaSet(ctx context.Context, namespace, name string) {
	GinkgoHelper()
	labels := map[string]string{"app": "web", "role": name}
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "registry.k8s.io/pause:3.10"}}},
			},
		},
	}
	_, err := cluster.Clientset.AppsV1().ReplicaSets(namespace).Create(ctx, rs, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not create the ReplicaSet %s/%s", namespace, name)
}

// pendingPod is a Pod labelled app=<app> that no node can take, so it stays where it is.
func pendingPod(name, app string) *corev1.Pod {
	pod := samplePod(name, "", app)
	pod.Spec.NodeSelector = map[string]string{"lesson03.workshop.local/no-such-node": "true"}
	return pod
}

// createDeployment creates a Deployment of pause containers labelled app=<name>.
func createDeployment(ctx context.Context, namespace, name string, replicas int32) {
	GinkgoHelper()
	labels := map[string]string{"app": name}
	deployment := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					TerminationGracePeriodSeconds: ptr.To[int64](1),
					Containers:                    []corev1.Container{{Name: "main", Image: "registry.k8s.io/pause:3.10"}},
				},
			},
		},
	}
	_, err := cluster.Clientset.AppsV1().Deployments(namespace).Create(ctx, deployment, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not create the Deployment %s/%s", namespace, name)
}

// scaleDeployment sets the replicas through the scale subresource, as `kubectl scale` does.
func scaleDeployment(ctx context.Context, namespace, name string, replicas int32) {
	GinkgoHelper()
	scale := &autoscalingv1.Scale{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       autoscalingv1.ScaleSpec{Replicas: replicas},
	}
	_, err := cluster.Clientset.AppsV1().Deployments(namespace).UpdateScale(ctx, name, scale, metav1.UpdateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not scale the Deployment %s/%s", namespace, name)
}

// waitForDeployment waits, through the API, until the Deployment controller has seen the
// latest spec and that many replicas are available.
func waitForDeployment(ctx context.Context, namespace, name string, replicas int32) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		d, err := cluster.Clientset.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(d.Status.ObservedGeneration).To(Equal(d.Generation))
		g.Expect(d.Status.Replicas).To(Equal(replicas))
		g.Expect(d.Status.AvailableReplicas).To(Equal(replicas))
	}).WithContext(ctx).Should(Succeed(), "the Deployment %s/%s did not reach %d available replicas: is the cluster's controller-manager running?", namespace, name, replicas)
}

// waitForPodCount waits, through the API, until exactly n Pods match selector: deleted Pods
// linger while their kubelet stops them.
func waitForPodCount(ctx context.Context, namespace, selector string, n int) {
	GinkgoHelper()
	Eventually(func() ([]string, error) {
		pods, err := cluster.Clientset.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return nil, err
		}
		return names(pointers(pods.Items)), nil
	}).WithContext(ctx).Should(HaveLen(n), "the Pods of %s did not come down to %d", selector, n)
}

// keysAfter returns what follows prefix in the events that start with it: the keys, for
// prefix "delete Pod ".
func keysAfter(rec *informers.Recorder, prefix string) []string {
	var keys []string
	for _, event := range rec.Events() {
		if key, found := strings.CutPrefix(event, prefix); found {
			keys = append(keys, key)
		}
	}
	return keys
}

// reportCounts writes the counts to the spec's output: run with -ginkgo.v to see them.
func reportCounts(rec *informers.Recorder) {
	for _, kind := range []string{"ReplicaSet", "Pod"} {
		GinkgoWriter.Printf("%-10s add %d, update %d, delete %d\n", kind,
			rec.Count("add "+kind+" "), rec.Count("update "+kind+" "), rec.Count("delete "+kind+" "))
	}
}
