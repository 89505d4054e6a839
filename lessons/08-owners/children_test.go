package owners_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	owners "workshop.local/lessons/08-owners"
	"workshop.local/lessons/internal/harness"
)

// restartedAt is the pod template annotation `kubectl rollout restart` sets to roll a
// Deployment's pods (k8s.io/kubectl/pkg/polymorphichelpers/objectrestarter.go).
const restartedAt = "kubectl.kubernetes.io/restartedAt"

var _ = Describe("Exercise 2: converge the children", harness.Exercise(2), func() {
	var (
		ns     string
		site   *owners.Website
		writes *harness.RequestLog
		c      client.Client // what your functions get: reads go to the API server, writes are counted
	)

	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, prefix)
		site = newSite(ns, "blog", 2)
		create(ctx, site)
		writes = &harness.RequestLog{}
		c = directClient(writes.Watching(cluster.Config))
	})

	convergePage := func(ctx context.Context) controllerutil.OperationResult {
		GinkgoHelper()
		result, err := owners.ConvergePage(ctx, c, site)
		Expect(err).NotTo(HaveOccurred(), "ConvergePage failed")
		return result
	}
	convergeDeployment := func(ctx context.Context) controllerutil.OperationResult {
		GinkgoHelper()
		result, err := owners.ConvergeDeployment(ctx, c, site)
		Expect(err).NotTo(HaveOccurred(), "ConvergeDeployment failed")
		return result
	}
	expectControlledBySite := func(obj metav1.Object) {
		GinkgoHelper()
		ref := controllerOf(obj)
		Expect(ref).NotTo(BeNil(), "%s has no controller reference: set it inside the mutate function (Own, exercise 1)", obj.GetName())
		Expect(ref.Kind).To(Equal("Website"))
		Expect(ref.UID).To(Equal(site.UID), "%s should be controlled by the site", obj.GetName())
	}

	It("creates the page, controlled by the site, with a single write", func(ctx SpecContext) {
		Expect(convergePage(ctx)).To(Equal(controllerutil.OperationResultCreated), "return what CreateOrUpdate reports")
		Expect(writes.Writes()).To(Equal([]string{"POST /api/v1/namespaces/" + ns + "/configmaps"}),
			"creating the page should take one write: set everything (data, owner reference) before it is created, inside the mutate function")
		var page corev1.ConfigMap
		Expect(get(ctx, owners.PageKeyOf(site), &page)).To(BeTrue(), "no ConfigMap %s", owners.PageName(site))
		Expect(page.Data).To(HaveKeyWithValue(owners.PageKey, site.Spec.Page), "the page should hold site.Spec.Page under %s", owners.PageKey)
		expectControlledBySite(&page)
	}, SpecTimeout(harness.Timeout))

	It("creates the Deployment, controlled by the site, with a single write", func(ctx SpecContext) {
		Expect(convergeDeployment(ctx)).To(Equal(controllerutil.OperationResultCreated), "return what CreateOrUpdate reports")
		Expect(writes.Writes()).To(Equal([]string{"POST /apis/apps/v1/namespaces/" + ns + "/deployments"}),
			"creating the Deployment should take one write: set everything before it is created, inside the mutate function")
		var deploy appsv1.Deployment
		Expect(get(ctx, owners.DeploymentKeyOf(site), &deploy)).To(BeTrue(), "no Deployment %s", site.Name)
		Expect(deploy.Spec.Replicas).To(Equal(ptr.To(site.Spec.Replicas)), "the Deployment should run site.Spec.Replicas pods")
		Expect(deploy.Spec.Selector.MatchLabels).To(Equal(owners.SelectorLabels(site)), "select the pods by SelectorLabels(site)")
		Expect(deploy.Spec.Template.Spec.Containers).To(ConsistOf(HaveField("Image", owners.Image)), "set the pod template with SetPodTemplate")
		expectControlledBySite(&deploy)
	}, SpecTimeout(harness.Timeout))

	It("writes nothing when the children already match, even after the Deployment controller has worked on the Deployment", func(ctx SpecContext) {
		convergePage(ctx)
		convergeDeployment(ctx)
		// The Deployment controller annotates the Deployment with its revision and writes its
		// status; the API server filled in defaults at creation. None of that is the site's.
		Eventually(func() map[string]string {
			var deploy appsv1.Deployment
			get(ctx, owners.DeploymentKeyOf(site), &deploy)
			return deploy.Annotations
		}).WithContext(ctx).Should(HaveKey("deployment.kubernetes.io/revision"), "the Deployment controller never picked up the Deployment")

		writes.Reset()
		for range 2 {
			Expect(convergePage(ctx)).To(Equal(controllerutil.OperationResultNone), "the page already matched: nothing to do")
			Expect(convergeDeployment(ctx)).To(Equal(controllerutil.OperationResultNone),
				"the Deployment already matched, yet it was updated: set only the fields the site decides, on the object CreateOrUpdate read (replacing a whole struct wipes the server's defaults, so before and after never compare equal)")
		}
		Expect(writes.Writes()).To(BeEmpty(), "converging children that already match should send no write")
	}, SpecTimeout(harness.Timeout))

	It("updates the page when the site changes, keeping what others put on it", func(ctx SpecContext) {
		convergePage(ctx)
		change(ctx, owners.PageKeyOf(site), &corev1.ConfigMap{}, func(cm *corev1.ConfigMap) {
			cm.Labels = map[string]string{"team": "web"}
			cm.Data["robots.txt"] = "User-agent: *"
		})

		site.Spec.Page = "<h1>new</h1>"
		writes.Reset()
		Expect(convergePage(ctx)).To(Equal(controllerutil.OperationResultUpdated), "the page changed: ConvergePage should update it")
		Expect(writes.Writes()).To(HaveLen(1), "one update was needed; ConvergePage sent %v", writes.Writes())
		var page corev1.ConfigMap
		get(ctx, owners.PageKeyOf(site), &page)
		Expect(page.Data).To(HaveKeyWithValue(owners.PageKey, "<h1>new</h1>"),
			"the page was not updated: CreateOrUpdate's Get overwrites what you set on the object before the call; set the data inside the mutate function")
		Expect(page.Labels).To(HaveKeyWithValue("team", "web"), "a label someone else added was lost: change the object CreateOrUpdate read, do not replace it")
		Expect(page.Data).To(HaveKeyWithValue("robots.txt", "User-agent: *"), "a key someone else added was lost: set your key, do not replace the whole Data map")
	}, SpecTimeout(harness.Timeout))

	It("puts back a Deployment edited by hand, with a single write, keeping what other tools added", func(ctx SpecContext) {
		convergeDeployment(ctx)
		change(ctx, owners.DeploymentKeyOf(site), &appsv1.Deployment{}, func(d *appsv1.Deployment) {
			d.Spec.Replicas = ptr.To[int32](5)
			d.Spec.Template.Spec.Containers[0].Image = "registry.invalid/hacked:1"
			// What `kubectl rollout restart` writes, and a label from another tool.
			d.Spec.Template.Annotations = map[string]string{restartedAt: "2026-01-01T00:00:00Z"}
			d.Labels = map[string]string{"team": "web"}
		})

		writes.Reset()
		// The Deployment controller is reacting to the edit meanwhile, writing the status: an
		// update may meet a Conflict, which a controller would retry, and so does the spec.
		var result controllerutil.OperationResult
		Expect(retry.RetryOnConflict(retry.DefaultRetry, func() (err error) {
			result, err = owners.ConvergeDeployment(ctx, c, site)
			return err
		})).To(Succeed(), "ConvergeDeployment failed")
		Expect(result).To(Equal(controllerutil.OperationResultUpdated), "the Deployment differed from the site: ConvergeDeployment should update it")
		Expect(writes.Writes()).To(HaveEach("PUT /apis/apps/v1/namespaces/"+ns+"/deployments/"+site.Name),
			"one update of the Deployment was needed (tried again only after a Conflict); ConvergeDeployment sent %v", writes.Writes())
		var deploy appsv1.Deployment
		get(ctx, owners.DeploymentKeyOf(site), &deploy)
		Expect(deploy.Spec.Replicas).To(Equal(ptr.To(site.Spec.Replicas)), "the replicas should be the site's again")
		Expect(deploy.Spec.Template.Spec.Containers).To(ConsistOf(HaveField("Image", owners.Image)), "the image should be the site's again")
		Expect(deploy.Spec.Template.Annotations).To(HaveKey(restartedAt),
			"the pod template lost the annotation `kubectl rollout restart` put there, so every restart is undone (and rolled out again): set the template's fields you own (SetPodTemplate), do not replace its metadata")
		Expect(deploy.Labels).To(HaveKeyWithValue("team", "web"), "a label someone else put on the Deployment was lost: change the object CreateOrUpdate read, do not replace its metadata")
	}, SpecTimeout(harness.Timeout))

	It("reports a page that another Website controls, and leaves it alone", func(ctx SpecContext) {
		other := newSite(ns, "shop", 1)
		create(ctx, other)
		taken := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: owners.PageName(site)},
			Data:       map[string]string{owners.PageKey: "<h1>shop</h1>"},
		}
		Expect(controllerutil.SetControllerReference(other, taken, newScheme())).To(Succeed())
		create(ctx, taken)

		writes.Reset()
		_, err := owners.ConvergePage(ctx, c, site)
		var owned *controllerutil.AlreadyOwnedError
		Expect(errors.As(err, &owned)).To(BeTrue(), "the page is controlled by Website shop: return the *controllerutil.AlreadyOwnedError; ConvergePage returned %v", err)
		Expect(writes.Writes()).To(BeEmpty(), "a child another Website controls must not be written to")
		var page corev1.ConfigMap
		get(ctx, owners.PageKeyOf(site), &page)
		Expect(page.Data).To(HaveKeyWithValue(owners.PageKey, "<h1>shop</h1>"))
		Expect(controllerOf(&page).UID).To(Equal(other.UID), "the page must stay controlled by Website shop")
	}, SpecTimeout(harness.Timeout))

	It("Reconcile returns an error reading the site that is not NotFound", func(ctx SpecContext) {
		denied := directClient(forbidWebsiteReads(writes.Watching(cluster.Config)))
		r := &owners.WebsiteReconciler{Client: denied}
		_, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(site)})
		Expect(apierrors.IsForbidden(err)).To(BeTrue(),
			"reading the Website was refused (403 Forbidden, as with a missing RBAC rule): only NotFound means \"gone\"; any other error should come back from Reconcile, so that the controller retries and it shows; Reconcile returned %v", err)
		Expect(writes.Writes()).To(BeEmpty(), "the site could not be read: nothing should be written")
	}, SpecTimeout(harness.Timeout))

	It("Reconcile returns the error of a child it cannot converge", func(ctx SpecContext) {
		other := newSite(ns, "shop", 1)
		create(ctx, other)
		taken := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: owners.PageName(site)}}
		Expect(controllerutil.SetControllerReference(other, taken, newScheme())).To(Succeed())
		create(ctx, taken)

		r := &owners.WebsiteReconciler{Client: c}
		_, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(site)})
		var owned *controllerutil.AlreadyOwnedError
		Expect(errors.As(err, &owned)).To(BeTrue(),
			"the page is controlled by Website shop, so ConvergePage fails: Reconcile should return that error (the controller retries, and the error shows in its logs and metrics), not drop it; Reconcile returned %v", err)
	}, SpecTimeout(harness.Timeout))

	It("Reconcile converges both children, every time, and ends quietly for a site that is gone", func(ctx SpecContext) {
		r := &owners.WebsiteReconciler{Client: c}
		result, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(site)})
		Expect(err).NotTo(HaveOccurred(), "Reconcile failed")
		Expect(result).To(Equal(reconcile.Result{}))
		Expect(get(ctx, owners.PageKeyOf(site), &corev1.ConfigMap{})).To(BeTrue(), "Reconcile should converge the page")
		Expect(get(ctx, owners.DeploymentKeyOf(site), &appsv1.Deployment{})).To(BeTrue(), "Reconcile should converge the Deployment")

		// A child deleted while the site and its page stay the same: the next reconcile (the
		// owner watch's) must still converge every child, not stop at the first unchanged one.
		deploy := &appsv1.Deployment{}
		Expect(get(ctx, owners.DeploymentKeyOf(site), deploy)).To(BeTrue())
		Expect(cluster.Clientset.AppsV1().Deployments(ns).Delete(ctx, deploy.Name, metav1.DeleteOptions{})).To(Succeed())
		Eventually(gone(ctx, owners.DeploymentKeyOf(site), &appsv1.Deployment{})).WithContext(ctx).Should(BeTrue())
		_, err = r.Reconcile(ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(site)})
		Expect(err).NotTo(HaveOccurred(), "Reconcile failed")
		Expect(get(ctx, owners.DeploymentKeyOf(site), &appsv1.Deployment{})).To(BeTrue(),
			"the Deployment was deleted while the page stayed as it was, and Reconcile did not create it again: each reconcile converges every child, whatever happened to the others")

		writes.Reset()
		result, err = r.Reconcile(ctx, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: "deleted-meanwhile"}})
		Expect(err).NotTo(HaveOccurred(), "a Website that no longer exists is normal (deleted after the event was queued): Reconcile should end without an error")
		Expect(result).To(Equal(reconcile.Result{}))
		Expect(writes.Writes()).To(BeEmpty(), "nothing to write for a Website that is gone: the garbage collector deletes its children")
	}, SpecTimeout(harness.Timeout))
})

// forbidWebsiteReads returns a copy of cfg whose GETs of Websites are answered 403 Forbidden, as
// the API server answers a controller whose RBAC role lacks "get websites". Everything else
// goes through.
func forbidWebsiteReads(cfg *rest.Config) *rest.Config {
	denied := rest.CopyConfig(cfg)
	denied.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "/websites") {
				return rt.RoundTrip(r)
			}
			const status = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",` +
				`"message":"websites.lesson08.workshop.local is forbidden (said by the spec)","reason":"Forbidden","code":403}`
			return &http.Response{
				Status: "403 Forbidden", StatusCode: http.StatusForbidden, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				Header:  http.Header{"Content-Type": []string{"application/json"}},
				Body:    io.NopCloser(strings.NewReader(status)),
				Request: r,
			}, nil
		})
	})
	return denied
}
