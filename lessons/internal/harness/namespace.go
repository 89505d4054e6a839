package harness

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Namespace creates a namespace for the current spec, named "<prefix>-<random>", and deletes it
// when the spec ends. If the spec failed, the namespace's events and objects are written to the
// spec's output first, which is usually where the reason is. Specs that each use their own
// namespace can run in parallel and in any order.
func (c *Cluster) Namespace(ctx context.Context, prefix string) string {
	GinkgoHelper()
	ns, err := c.Clientset.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-", Labels: map[string]string{"workshop.local/spec": "true"}},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not create a namespace for this spec")
	DeferCleanup(func(ctx SpecContext) {
		if CurrentSpecReport().Failed() {
			c.dumpNamespace(ctx, ns.Name)
		}
		err := c.Clientset.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{})
		if !apierrors.IsNotFound(err) {
			Expect(err).NotTo(HaveOccurred())
		}
	}, NodeTimeout(30*time.Second))
	return ns.Name
}
