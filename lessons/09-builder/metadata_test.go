package sites_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	sites "workshop.local/lessons/09-builder"
	"workshop.local/lessons/internal/harness"
)

// metadataOnly is what the metadata client asks for (k8s.io/client-go/metadata, List, Get and
// Watch): as=PartialObjectMetadataList for lists, as=PartialObjectMetadata for the rest.
const metadataOnly = "as=PartialObjectMetadata"

// configMapReads returns the GET requests in log for the ConfigMaps of namespace (lists,
// watches and single reads), each as "path?query Accept: ...".
func configMapReads(log *harness.RequestLog, namespace string) (metadata, full []string) {
	return reads(log, "/api/v1/namespaces/"+namespace+"/configmaps")
}

// reads returns the GET requests in log for the collection at path and its objects, split by
// the form they asked for: metadata only, or whole objects.
func reads(log *harness.RequestLog, path string) (metadata, full []string) {
	for _, r := range log.Requests() {
		if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, path) {
			continue
		}
		accept := r.Header.Get("Accept")
		line := fmt.Sprintf("%s?%s Accept: %s", r.URL.Path, r.URL.RawQuery, accept)
		if strings.Contains(accept, metadataOnly) {
			metadata = append(metadata, line)
		} else {
			full = append(full, line)
		}
	}
	return metadata, full
}

var _ = Describe("Exercise 2: metadata-only watches", harness.Exercise(2), func() {
	var (
		ns       string
		requests *harness.RequestLog
		mgr      manager.Manager
		rec      *harness.ReconcileRecorder
		alpha    *sites.Website
	)

	// start runs the lean controller in a manager whose requests (headers included) are
	// recorded; Website alpha and its page exist before. Its reconciler reads what the Website
	// reconciler reads whole, through the manager's client: the Website and its Deployment.
	start := func(ctx SpecContext) {
		GinkgoHelper()
		ns = cluster.Namespace(ctx, prefix)
		alpha = createSite(ctx, ns, "alpha")
		createPage(ctx, alpha)
		requests = &harness.RequestLog{}
		mgr = newManager(requests.Watching(cluster.Config), ns, nil)
		rec = harness.RecordReconciles(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			var site sites.Website
			if err := mgr.GetClient().Get(ctx, req.NamespacedName, &site); err != nil {
				return reconcile.Result{}, client.IgnoreNotFound(err)
			}
			var deployment appsv1.Deployment
			return reconcile.Result{}, client.IgnoreNotFound(mgr.GetClient().Get(ctx, req.NamespacedName, &deployment))
		}))
		c, err := sites.NewLeanWebsiteController(mgr, rec)
		Expect(err).NotTo(HaveOccurred(), "NewLeanWebsiteController failed")
		Expect(c).NotTo(BeNil(), "NewLeanWebsiteController should return the controller Build made")
		harness.StartManager(ctx, mgr)
		Eventually(func() int { return rec.CountFor(client.ObjectKeyFromObject(alpha)) }).WithContext(ctx).WithTimeout(settle).Should(BeNumerically(">=", 1),
			"Website alpha was never reconciled: For(&Website{})")
	}

	It("lists and watches ConfigMaps as metadata only, and what the reconciler reads whole as whole objects only", func(ctx SpecContext) {
		start(ctx)
		metadata, full := configMapReads(requests, ns)
		Expect(full).To(BeEmpty(), "the manager read whole ConfigMaps: every ConfigMap watch must be metadata-only (builder.OnlyMetadata on Owns, WatchesMetadata for the settings); one full watch of the kind is a second informer that holds every ConfigMap, data and all")
		Expect(metadata).NotTo(BeEmpty(), "the manager never listed or watched ConfigMaps: the controller should watch the pages it owns and the settings")

		// The reconciler reads Websites and Deployments whole: a metadata-only watch of either
		// adds a second informer beside the full one its reads start, and saves nothing.
		metadata, full = reads(requests, "/apis/apps/v1/namespaces/"+ns+"/deployments")
		Expect(metadata).To(BeEmpty(), "the manager listed or watched Deployments as metadata too: the reconciler reads Deployments whole (their status), so a metadata-only Owns of them is a second informer beside the full one; keep that watch whole")
		Expect(full).NotTo(BeEmpty(), "the manager never listed or watched Deployments: the controller should own them")
		metadata, full = reads(requests, websitesPath(ns))
		Expect(metadata).To(BeEmpty(), "the manager listed or watched Websites as metadata too: the reconciler reads each Website whole (its spec), so For(&Website{}) stays whole")
		Expect(full).NotTo(BeEmpty(), "the manager never listed or watched Websites: For(&Website{})")
	}, SpecTimeout(harness.Timeout))

	It("still reconciles a Website when its page or the settings change", func(ctx SpecContext) {
		start(ctx)
		beta := createSite(ctx, ns, "beta")
		Eventually(rec.Keys).WithContext(ctx).WithTimeout(settle).Should(ContainElement(keyOf(beta)))
		page := &corev1.ConfigMap{}
		page.Namespace, page.Name = ns, sites.PageName(alpha)
		expectReconciles(ctx, rec, "alpha's page edited (its owner, alpha, should be reconciled)", func() {
			change(ctx, page, false, func(cm *corev1.ConfigMap) { cm.Data["index.html"] = "edited by hand" })
		}, keyOf(alpha))
		expectReconciles(ctx, rec, "the settings created (every Website in the namespace should be reconciled)", func() {
			createConfigMap(ctx, ns, sites.SettingsName, "footer", "<footer>workshop</footer>")
		}, keyOf(alpha), keyOf(beta))
		expectReconciles(ctx, rec, "an unrelated ConfigMap created", func() {
			createConfigMap(ctx, ns, "notes", "k", "v")
		})
	}, SpecTimeout(harness.Timeout))

	It("PageMetadata reads a page's metadata from the metadata-only cache", func(ctx SpecContext) {
		start(ctx)
		requests.Reset()
		got, err := sites.PageMetadata(ctx, mgr.GetClient(), alpha)
		Expect(err).NotTo(HaveOccurred(), "PageMetadata failed")
		Expect(got).NotTo(BeNil())
		Expect(got.Name).To(Equal(sites.PageName(alpha)), "PageMetadata should return alpha's page")
		Expect(got.Labels).To(HaveKeyWithValue(sites.SiteLabel, alpha.Name), "the page's metadata should have its labels")
		Expect(got.OwnerReferences).To(ContainElement(HaveField("UID", alpha.UID)), "the page's metadata should have its owner reference to alpha")
		_, full := configMapReads(requests, ns)
		Expect(full).To(BeEmpty(), "PageMetadata made the manager read whole ConfigMaps: Get a *metav1.PartialObjectMetadata; a Get of a *corev1.ConfigMap starts a second, full informer for ConfigMaps")
		metadata, _ := configMapReads(requests, ns)
		Expect(metadata).To(BeEmpty(), "PageMetadata sent a request: the manager's client reads a PartialObjectMetadata from the metadata cache the controller's watches fill")

		beta := createSite(ctx, ns, "no-page")
		_, err = sites.PageMetadata(ctx, mgr.GetClient(), beta)
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "a Website without a page: PageMetadata should return the reader's NotFound error, got %v", err)
	}, SpecTimeout(harness.Timeout))
})
