package main_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/utils/ptr"
)

// itRunsRealWorkloads proves the local cluster is a real one and not just an API server: the
// controller-manager turns a Deployment into a ReplicaSet and Pods, the scheduler binds them to
// the hollow node, whose kubelet reports them Running, and the garbage collector removes the
// children when the Deployment goes.
func itRunsRealWorkloads() {
	It("runs a Deployment to Available and garbage-collects it", func(ctx SpecContext) {
		cs := adminClient()
		ns, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{
			ObjectMeta: metav1.ObjectMeta{GenerateName: "smoke-"}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func(ctx context.Context) error {
			return cs.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{})
		})

		deploy, err := cs.AppsV1().Deployments(ns.Name).Create(ctx, webDeployment(), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())

		By("the Deployment becoming Available with 3 replicas")
		waitAvailable(ctx, cs, deploy, 3)
		By("a ReplicaSet owned by the Deployment, and 3 Pods Running on the hollow node")
		expectChildrenRunning(ctx, cs, deploy, 3)
		By("logs and exec reaching the node, which says that it runs no containers")
		expectHonestNode(ctx, cs, ns.Name)
		By("deleting the Deployment and watching the garbage collector remove the rest")
		Expect(cs.AppsV1().Deployments(ns.Name).Delete(ctx, deploy.Name, metav1.DeleteOptions{
			PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)})).To(Succeed())
		waitNamespaceEmpty(ctx, cs, ns.Name)
	}, SpecTimeout(4*time.Minute))
}

// waitAvailable waits until the controller-manager reports the Deployment's replicas available.
func waitAvailable(ctx context.Context, cs kubernetes.Interface, deploy *appsv1.Deployment, replicas int32) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		d, err := cs.AppsV1().Deployments(deploy.Namespace).Get(ctx, deploy.Name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(d.Status.AvailableReplicas).To(Equal(replicas))
	}).WithContext(ctx).WithTimeout(90 * time.Second).WithPolling(500 * time.Millisecond).Should(Succeed())
}

// expectChildrenRunning checks the Deployment's one ReplicaSet, and waits for its Pods to be
// bound to the cluster's node and Running: the kubelet reports each phase on its own schedule.
func expectChildrenRunning(ctx context.Context, cs kubernetes.Interface, deploy *appsv1.Deployment, replicas int) {
	GinkgoHelper()
	rsList, err := cs.AppsV1().ReplicaSets(deploy.Namespace).List(ctx, metav1.ListOptions{})
	Expect(err).NotTo(HaveOccurred())
	Expect(rsList.Items).To(HaveLen(1))
	Expect(rsList.Items[0].OwnerReferences).To(ContainElement(HaveField("UID", deploy.UID)))
	// The cluster's one node, whichever runtime runs it (the local runtime's hollow node, kind's
	// control plane): the test asks the cluster, not a runtime, for its name.
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	Expect(err).NotTo(HaveOccurred())
	Expect(nodes.Items).To(HaveLen(1), "the workshop cluster has one node")
	Eventually(func(g Gomega) {
		pods, err := cs.CoreV1().Pods(deploy.Namespace).List(ctx, metav1.ListOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(pods.Items).To(HaveLen(replicas))
		for _, p := range pods.Items {
			g.Expect(p.Spec.NodeName).To(Equal(nodes.Items[0].Name))
			g.Expect(p.Status.Phase).To(Equal(corev1.PodRunning))
		}
	}).WithContext(ctx).WithTimeout(60 * time.Second).WithPolling(500 * time.Millisecond).Should(Succeed())
}

// expectHonestNode asks for a Pod's log and an exec into it, as kubectl does. Both travel from
// the API server to the kubelet at the node's address, 127.0.0.1, so they must neither fail
// to resolve the node's name nor be refused by the kubelet, and the answer must say why there
// is nothing to show.
func expectHonestNode(ctx context.Context, cs *kubernetes.Clientset, ns string) {
	GinkgoHelper()
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	Expect(err).NotTo(HaveOccurred())
	pod := pods.Items[0].Name
	log, err := cs.CoreV1().Pods(ns).GetLogs(pod, &corev1.PodLogOptions{}).DoRaw(ctx)
	Expect(err).NotTo(HaveOccurred())
	Expect(string(log)).To(ContainSubstring("hollow node runs no containers"))

	req := cs.CoreV1().RESTClient().Post().Namespace(ns).Resource("pods").Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Command: []string{"ls"}, Stdout: true}, scheme.ParameterCodec)
	exec, err := remotecommand.NewSPDYExecutor(adminConfig(), "POST", req.URL())
	Expect(err).NotTo(HaveOccurred())
	err = exec.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: GinkgoWriter})
	Expect(err).To(MatchError(ContainSubstring("hollow node runs no containers")))
}

// waitNamespaceEmpty waits until no ReplicaSet or Pod is left in the namespace.
func waitNamespaceEmpty(ctx context.Context, cs kubernetes.Interface, ns string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		rs, err := cs.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(rs.Items).To(BeEmpty())
		pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(pods.Items).To(BeEmpty())
	}).WithContext(ctx).WithTimeout(90 * time.Second).WithPolling(500 * time.Millisecond).Should(Succeed())
}

func webDeployment() *appsv1.Deployment {
	labels := map[string]string{"app": "web"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}
}
