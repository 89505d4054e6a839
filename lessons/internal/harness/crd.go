package harness

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// EnsureCRD installs a CustomResourceDefinition unless it exists, and waits until it is
// Established and discovery lists its resource, so that the code under test sees it at once.
// CRDs are cluster-scoped and shared by every spec (and every parallel process), so each lesson
// names its own, and they are created idempotently and never deleted by a spec.
func (c *Cluster) EnsureCRD(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) {
	GinkgoHelper()
	client := apiextensionsclient.NewForConfigOrDie(c.Config).ApiextensionsV1().CustomResourceDefinitions()
	_, err := client.Create(ctx, crd, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		Expect(err).NotTo(HaveOccurred(), "could not install the CRD %s", crd.Name)
	}
	Eventually(func(g Gomega) {
		got, err := client.Get(ctx, crd.Name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.Status.Conditions).To(ContainElement(And(
			HaveField("Type", apiextensionsv1.Established),
			HaveField("Status", apiextensionsv1.ConditionTrue))))
	}).WithContext(ctx).WithTimeout(30*time.Second).Should(Succeed(), "the CRD %s was not Established in time", crd.Name)
	c.waitDiscoverable(ctx, crd)
}

// waitDiscoverable waits until discovery lists the CRD's resource at every version it serves,
// both per group version (/apis/<group>/<version>) and in the aggregated discovery document
// (/apis), which client-go's discovery client (and so a learner's RESTMapper) reads by default
// and which the API server updates on its own schedule, after the group version.
func (c *Cluster) waitDiscoverable(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) {
	GinkgoHelper()
	disc := c.Clientset.Discovery()
	Eventually(func(g Gomega) {
		_, lists, err := disc.ServerGroupsAndResources()
		g.Expect(err).NotTo(HaveOccurred())
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			groupVersion := crd.Spec.Group + "/" + v.Name
			list, err := disc.ServerResourcesForGroupVersionWithContext(ctx, groupVersion)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(list.APIResources).To(ContainElement(HaveField("Name", crd.Spec.Names.Plural)))
			g.Expect(lists).To(ContainElement(And(
				HaveField("GroupVersion", groupVersion),
				HaveField("APIResources", ContainElement(HaveField("Name", crd.Spec.Names.Plural))))),
				"the aggregated discovery document does not list %s yet", groupVersion)
		}
	}).WithContext(ctx).WithTimeout(30*time.Second).Should(Succeed(), "discovery does not list %s yet", crd.Name)
}
