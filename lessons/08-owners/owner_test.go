package owners_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	owners "workshop.local/lessons/08-owners"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 1: controller references", harness.Exercise(1), func() {
	// site is a Website as a client's Get returns it: a uid, and no apiVersion or kind.
	site := newSite("shop", "blog", 1)
	site.UID = types.UID("11111111-1111-1111-1111-111111111111")
	child := func() *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "blog-page"}}
	}
	ownedBy := func(apiVersion, kind, name, uid string) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: types.UID(uid), Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}
	}
	own := func(obj client.Object) error { return owners.Own(newScheme(), site, obj) }

	It("names the site by apiVersion, kind, name and uid", func() {
		page := child()
		Expect(own(page)).To(Succeed(), "Own failed")
		Expect(page.OwnerReferences).To(HaveLen(1), "Own should add one owner reference")
		ref := page.OwnerReferences[0]
		Expect(ref.APIVersion).To(Equal("lesson08.workshop.local/v1"), "the apiVersion comes from the scheme: a Website read through a client has an empty TypeMeta, so site.APIVersion is \"\"")
		Expect(ref.Kind).To(Equal("Website"), "the kind comes from the scheme, not from site.Kind (empty on typed objects)")
		Expect(ref.Name).To(Equal("blog"))
		Expect(ref.UID).To(Equal(site.UID), "the uid tells this Website from an older one of the same name")
	})

	It("makes the site the controller, blocking its foreground deletion", func() {
		page := child()
		Expect(own(page)).To(Succeed(), "Own failed")
		Expect(page.OwnerReferences).To(HaveLen(1), "Own should add one owner reference")
		Expect(page.OwnerReferences[0].Controller).To(Equal(ptr.To(true)), "controller: true is what makes it a *controller* reference (SetOwnerReference does not set it; SetControllerReference does)")
		Expect(page.OwnerReferences[0].BlockOwnerDeletion).To(Equal(ptr.To(true)), "blockOwnerDeletion: true makes a foreground deletion of the site wait for this child")
	})

	It("leaves one reference when owning twice", func() {
		page := child()
		Expect(own(page)).To(Succeed(), "Own failed")
		Expect(own(page)).To(Succeed(), "owning a child the site already controls is not an error: a controller calls Own on every reconcile")
		Expect(page.OwnerReferences).To(HaveLen(1), "owning twice should leave one reference, not two (the API server refuses two controller references)")
	})

	It("keeps the child's other owner references", func() {
		page := child()
		other := metav1.OwnerReference{APIVersion: "v1", Kind: "Namespace", Name: "shop", UID: "22222222-2222-2222-2222-222222222222"}
		page.OwnerReferences = []metav1.OwnerReference{other}
		Expect(own(page)).To(Succeed(), "Own failed")
		Expect(page.OwnerReferences).To(ConsistOf(other, ownedBy("lesson08.workshop.local/v1", "Website", "blog", string(site.UID))),
			"Own should add the site's controller reference and keep the owner reference already there (a child may have many owners, one controller)")
	})

	DescribeTable("reports a child that another owner controls, and leaves it unchanged",
		func(current metav1.OwnerReference) {
			page := child()
			page.OwnerReferences = []metav1.OwnerReference{current}
			before := page.DeepCopy()
			err := own(page)
			var owned *controllerutil.AlreadyOwnedError
			Expect(errors.As(err, &owned)).To(BeTrue(), "another owner controls the child: return a *controllerutil.AlreadyOwnedError (SetControllerReference does), do not take it over; Own returned %v", err)
			Expect(err).To(MatchError(ContainSubstring(current.Name)), "the error should name the current controller")
			Expect(page).To(Equal(before), "the child must be left as it was: stealing it from its controller makes two controllers fight over it")
		},
		Entry("another Website", ownedBy("lesson08.workshop.local/v1", "Website", "shop-front", "33333333-3333-3333-3333-333333333333")),
		Entry("a ReplicaSet", ownedBy("apps/v1", "ReplicaSet", "blog-5d8f", "44444444-4444-4444-4444-444444444444")),
	)

	It("sets a reference the API server accepts and the garbage collector follows", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		live := newSite(ns, "blog", 1)
		create(ctx, live)
		deploy := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "blog"}, Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: owners.SelectorLabels(live)},
		}}
		owners.SetPodTemplate(&deploy.Spec.Template, live)
		Expect(owners.Own(newScheme(), live, deploy)).To(Succeed(), "Own failed")
		create(ctx, deploy)

		Expect(k8s.Delete(ctx, live)).To(Succeed())
		Eventually(gone(ctx, client.ObjectKeyFromObject(deploy), &appsv1.Deployment{})).WithContext(ctx).Should(BeTrue(),
			"the garbage collector did not delete the Deployment after its Website was deleted: its owner reference does not name the Website")
	}, SpecTimeout(harness.Timeout))
})
