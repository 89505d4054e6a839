package operator_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/10-operator/api/v1alpha1"
	"workshop.local/lessons/internal/harness"
)

// prefix starts the name of every namespace these specs create.
const prefix = "lesson10"

// settle is how long a spec waits for the API server or a controller to act on a change: each
// acts within milliseconds, so 15 s is slack for a loaded machine, and a mistake fails in 15 s
// rather than the default 30.
const settle = 15 * time.Second

// scheme knows client-go's kinds and StaticSite.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(v1alpha1.AddToScheme(s))
	return s
}()

// directClient is a client without a cache: every read and write goes to the API server.
func directClient(cfg *rest.Config) client.Client {
	GinkgoHelper()
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())
	return c
}

// fingerprintField is a property the suite adds to the CRD's schema, defaulted to a hash of
// the whole CRD, so that it can tell when the API server serves exactly this version of it.
const fingerprintField = "workshopSchema"

// applyCRD installs the CRD of config/crd/ (operator.CRD), or updates the installed one to it:
// unlike other lessons' fixed CRDs, this one changes whenever you change a marker and run
// `make generate`. Every run applies its own, so the cluster serves the schema of the code
// being checked. The API server takes a moment to serve a changed schema (it rebuilds a CRD's
// handler when its informer hears of the change), so applyCRD waits until a dry-run create
// comes back with this version's fingerprint.
func applyCRD(ctx context.Context, c *harness.Cluster) {
	GinkgoHelper()
	crd, err := operator.CRD()
	Expect(err).NotTo(HaveOccurred(), "config/crd/ does not hold a CRD: run make generate in lessons/10-operator")
	fingerprint := addFingerprint(crd)
	crds := apiextensionsclient.NewForConfigOrDie(c.Config).ApiextensionsV1().CustomResourceDefinitions()
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		installed, err := crds.Get(ctx, crd.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil // EnsureCRD creates it
		}
		if err != nil {
			return err
		}
		crd.ResourceVersion = installed.ResourceVersion
		_, err = crds.Update(ctx, crd, metav1.UpdateOptions{})
		return err
	})
	Expect(err).NotTo(HaveOccurred(), "could not update the StaticSite CRD to the one in config/crd/")
	crd.ResourceVersion = ""
	c.EnsureCRD(ctx, crd)
	waitForFingerprint(ctx, directClient(c.Config), fingerprint)
}

// addFingerprint adds fingerprintField to the root of the CRD's schema, defaulted to a hash of
// the CRD as generated, and returns the hash.
func addFingerprint(crd *apiextensionsv1.CustomResourceDefinition) string {
	GinkgoHelper()
	data, err := json.Marshal(crd.Spec)
	Expect(err).NotTo(HaveOccurred())
	sum := sha256.Sum256(data)
	fingerprint := hex.EncodeToString(sum[:8])
	def, err := json.Marshal(fingerprint)
	Expect(err).NotTo(HaveOccurred())
	for i := range crd.Spec.Versions {
		schema := crd.Spec.Versions[i].Schema.OpenAPIV3Schema
		schema.Properties[fingerprintField] = apiextensionsv1.JSONSchemaProps{Type: "string", Default: &apiextensionsv1.JSON{Raw: def}}
	}
	return fingerprint
}

// waitForFingerprint waits until the API server defaults a new StaticSite's fingerprintField to
// fingerprint: then it validates, defaults and serves StaticSites with the CRD just applied.
func waitForFingerprint(ctx context.Context, k8s client.Client, fingerprint string) {
	GinkgoHelper()
	Eventually(servedFingerprint).WithArguments(ctx, k8s).WithContext(ctx).WithTimeout(time.Minute).
		Should(Equal(fingerprint), "the API server did not start serving the StaticSite CRD of config/crd/ within a minute")
}

// servedFingerprint is the fingerprint of the StaticSite CRD the API server serves now: what it
// defaults a dry-run StaticSite's fingerprintField to.
func servedFingerprint(g Gomega, ctx context.Context, k8s client.Client) any {
	probe := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"page": "probe", "replicas": int64(1), "exposure": "Service"}}}
	probe.SetGroupVersionKind(v1alpha1.GroupVersion.WithKind("StaticSite"))
	probe.SetNamespace(metav1.NamespaceDefault)
	probe.SetName("schema-probe")
	g.Expect(k8s.Create(ctx, probe, client.DryRunAll)).To(Succeed())
	return probe.Object[fingerprintField]
}

// ownFingerprint is the fingerprint of the CRD this run installed, in every parallel process.
var ownFingerprint string

// A CRD is cluster-wide: two checks of this lesson at once against one cluster (make watch and
// make check, say) would each install their own. After every spec the CRD must still be this
// run's; otherwise the spec's verdict might be the other run's schema at work.
var _ = AfterEach(func(ctx SpecContext) {
	Expect(servedFingerprint(Default, ctx, k8s)).To(Equal(ownFingerprint),
		"the StaticSite CRD changed during this spec: another check of lesson 10 ran against this cluster at the same time, with other markers; check one at a time")
})

// newSite is a StaticSite in namespace ns (not created).
func newSite(ns, name string, replicas int32, exposure v1alpha1.Exposure) *v1alpha1.StaticSite {
	return &v1alpha1.StaticSite{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       v1alpha1.StaticSiteSpec{Replicas: replicas, Page: "<h1>" + name + "</h1>", Exposure: exposure},
	}
}
