package owners_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	owners "workshop.local/lessons/08-owners"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 1: controller references", harness.Exercise(1), func() {
	const (
		siteUID  = "11111111-1111-1111-1111-111111111111"
		olderUID = "55555555-5555-5555-5555-555555555555" // an older Website named blog, deleted since
	)
	// site is a Website as a direct client's Get returns it: a uid, and no apiVersion or kind.
	site := newSite("shop", "blog", 1)
	site.UID = siteUID
	child := func(refs ...metav1.OwnerReference) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "blog-page", OwnerReferences: refs}}
	}
	controlledBy := func(apiVersion, kind, name, uid string) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: types.UID(uid), Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}
	}
	// want is the one reference Own should leave to the site.
	want := controlledBy("lesson08.workshop.local/v1", "Website", "blog", siteUID)
	own := func(obj client.Object) error { return owners.Own(newScheme(), site, obj) }

	It("names the site by apiVersion, kind, name and uid, as the scheme knows them", func() {
		page := child()
		Expect(own(page)).To(Succeed(), "Own failed")
		Expect(page.OwnerReferences).To(HaveLen(1), "Own should add one owner reference")
		ref := page.OwnerReferences[0]
		Expect(ref.APIVersion).To(Equal("lesson08.workshop.local/v1"), "the apiVersion comes from the scheme (apiutil.GVKForObject): a Website read through a direct client has an empty TypeMeta, so site.APIVersion is \"\"")
		Expect(ref.Kind).To(Equal("Website"), "the kind comes from the scheme, not from site.Kind (empty here)")
		Expect(ref.Name).To(Equal("blog"))
		Expect(ref.UID).To(Equal(site.UID), "the uid tells this Website from an older one of the same name")

		coreOnly := runtime.NewScheme()
		Expect(clientgoscheme.AddToScheme(coreOnly)).To(Succeed())
		other := child()
		Expect(owners.Own(coreOnly, site, other)).NotTo(Succeed(),
			"the scheme Own was given does not know Websites: return its error (apiutil.GVKForObject) rather than write a kind the scheme does not vouch for")
		Expect(other.OwnerReferences).To(BeEmpty(), "a failed Own must leave the child unchanged")
	})

	It("makes the site the controller, blocking its foreground deletion", func() {
		page := child()
		Expect(own(page)).To(Succeed(), "Own failed")
		Expect(page.OwnerReferences).To(HaveLen(1), "Own should add one owner reference")
		Expect(page.OwnerReferences[0].Controller).To(Equal(ptr.To(true)), "controller: true is what makes it a *controller* reference (owner watches with OnlyControllerOwner follow only that one)")
		Expect(page.OwnerReferences[0].BlockOwnerDeletion).To(Equal(ptr.To(true)), "blockOwnerDeletion: true makes a foreground deletion of the site wait for this child")
	})

	It("leaves one reference when owning twice", func() {
		page := child()
		Expect(own(page)).To(Succeed(), "Own failed")
		Expect(own(page)).To(Succeed(), "owning a child the site already controls is not an error: a controller calls Own on every reconcile")
		Expect(page.OwnerReferences).To(ConsistOf(want), "owning twice should leave one reference to the site, not two")
	})

	It("keeps the child's other owner references", func() {
		namespace := metav1.OwnerReference{APIVersion: "v1", Kind: "Namespace", Name: "shop", UID: "22222222-2222-2222-2222-222222222222"}
		otherSite := metav1.OwnerReference{APIVersion: "lesson08.workshop.local/v1", Kind: "Website", Name: "shop-front", UID: "66666666-6666-6666-6666-666666666666"}
		page := child(namespace, otherSite)
		Expect(own(page)).To(Succeed(), "Own failed")
		Expect(page.OwnerReferences).To(ConsistOf(namespace, otherSite, want),
			"Own should add the site's controller reference and keep the plain references already there, another Website's too (a child may have many owners, one controller)")
	})

	It("adopts a child that names the site as a plain owner", func() {
		plain := metav1.OwnerReference{APIVersion: "lesson08.workshop.local/v1", Kind: "Website", Name: "blog", UID: siteUID}
		page := child(plain)
		Expect(own(page)).To(Succeed(), "the child's only reference to the site is a plain one: the site may make itself its controller")
		Expect(page.OwnerReferences).To(ConsistOf(want),
			"the plain reference and the controller reference name the same site (same uid): replace the plain one, do not add a second reference next to it")
	})

	It("refreshes a stale reference to the site itself", func() {
		// The same site (same uid), referenced by a version the API server may no longer serve,
		// and without blockOwnerDeletion.
		stale := metav1.OwnerReference{APIVersion: "lesson08.workshop.local/v1beta1", Kind: "Website", Name: "blog", UID: siteUID, Controller: ptr.To(true)}
		page := child(stale)
		Expect(own(page)).To(Succeed(), "the child's controller is the site itself (same uid): that is not another controller")
		Expect(page.OwnerReferences).To(ConsistOf(want),
			"a reference with the site's uid is the site's own: bring it up to date (apiVersion from the scheme, both flags), do not keep it as it was nor add a second one")
	})

	DescribeTable("reports a child that another owner controls, and leaves it unchanged",
		func(current metav1.OwnerReference) {
			page := child(current)
			before := page.DeepCopy()
			err := own(page)
			var owned *controllerutil.AlreadyOwnedError
			Expect(errors.As(err, &owned)).To(BeTrue(), "another owner (another uid) controls the child: return a *controllerutil.AlreadyOwnedError, do not take it over; Own returned %v", err)
			Expect(owned.Owner).To(Equal(current), "the AlreadyOwnedError's Owner should be the child's current controller reference")
			Expect(page).To(Equal(before), "the child must be left as it was: stealing it from its controller makes two controllers fight over it")
		},
		Entry("another Website", controlledBy("lesson08.workshop.local/v1", "Website", "shop-front", "33333333-3333-3333-3333-333333333333")),
		Entry("a ReplicaSet", controlledBy("apps/v1", "ReplicaSet", "blog-5d8f", "44444444-4444-4444-4444-444444444444")),
		Entry("an older Website of the same name (another uid)", controlledBy("lesson08.workshop.local/v1", "Website", "blog", olderUID)),
	)

	It("refuses a site without a uid, and leaves the child unchanged", func() {
		unsaved := newSite("shop", "blog", 1) // built in Go, never created: no uid
		page := child()
		err := owners.Own(newScheme(), unsaved, page)
		Expect(err).To(MatchError(owners.ErrNoUID),
			"a reference names its owner by uid, and the API server refuses one with an empty uid: return an error wrapping ErrNoUID; Own returned %v", err)
		Expect(page.OwnerReferences).To(BeEmpty(), "a failed Own must leave the child unchanged")
	})

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
