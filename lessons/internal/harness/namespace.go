package harness

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"workshop.local/scripts/leftovers"
)

// specLabel marks the namespaces specs create, so abandoned ones can be found.
const specLabel = "workshop.local/spec"

// abandonedAfter is how old a spec namespace must be before a new run deletes it even though
// its owner label does not say its run is gone (a namespace of a workspace whose .cluster folder,
// and so the owner locks, was removed). A spec lives for SpecTimeout at most. Namespaces whose
// owner is gone are deleted at once (sweepAbandoned, package leftovers).
const abandonedAfter = 15 * time.Minute

// Namespace creates a namespace for the current spec, named "<prefix>-<random>", and deletes it
// when the spec ends (or, if the run is killed first, the next run's harness.Connect does: it
// carries this process's owner label). If the spec failed, the namespace's events and objects are written to the
// spec's output first, which is usually where the reason is. Specs that each use their own
// namespace can run in parallel and in any order.
func (c *Cluster) Namespace(ctx context.Context, prefix string) string {
	GinkgoHelper()
	ns, err := c.Clientset.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-", Labels: map[string]string{specLabel: "true", leftovers.OwnerLabel: owner()}},
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

// sweepAbandonedNamespaces deletes spec namespaces left behind by interrupted runs, so a
// learner's cluster does not fill up with them. It is best effort: a failure is only logged.
func (c *Cluster) sweepAbandonedNamespaces(ctx context.Context) {
	list, err := c.Clientset.CoreV1().Namespaces().List(ctx, metav1.ListOptions{LabelSelector: specLabel + "=true"})
	if err != nil {
		GinkgoWriter.Printf("could not list old spec namespaces: %v\n", err)
		return
	}
	for _, ns := range list.Items {
		if time.Since(ns.CreationTimestamp.Time) > abandonedAfter && ns.DeletionTimestamp == nil {
			_ = c.Clientset.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{})
		}
	}
}
