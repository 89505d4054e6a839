package operator_test

import (
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"workshop.local/lessons/10-operator/api/v1alpha1"
	"workshop.local/lessons/internal/harness"
)

// Every spec of exercise 1 asks the real API server, with the CRD your markers generated
// (config/crd/, installed by the suite). The suite has already waited until the API server serves
// exactly that CRD (applyCRD): it keeps one handler per CRD, rebuilt when the CRD's spec changes
// (apiextensions-apiserver's crdHandler), so from then on its answers are those of your markers.
// The specs still ask through Eventually, but only for a moment (served), not a controller's wait.
const served = 5 * time.Second

// regenerate ends every failure message: a marker that is right in Go but missing from the
// cluster is usually a `make generate` not run.
const regenerate = " (after changing a marker, run make generate in lessons/10-operator)"

// expectTooManyRejected is what every validation spec checks first: without a Maximum marker the
// API server takes any number, and the other expectations would prove nothing.
func expectTooManyRejected(ctx SpecContext, g Gomega, ns string) {
	err := k8s.Create(ctx, newSite(ns, "too-many", 6, v1alpha1.ExposureService), client.DryRunAll)
	g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "the API server accepted replicas: 6 (error: %v): replicas should have a Maximum of 5; is exercise 1 still the stub?"+regenerate, err)
}

var _ = Describe("Exercise 1: the API, validated by the API server", harness.Exercise(1), func() {
	DescribeTable("accepts a StaticSite only within the rules of its markers",
		func(ctx SpecContext, replicas int32, exposure v1alpha1.Exposure, rejectedWith, why string) {
			ns := cluster.Namespace(ctx, prefix)
			Eventually(func(g Gomega) {
				expectTooManyRejected(ctx, g, ns)
				site := newSite(ns, "site", replicas, exposure)
				err := k8s.Create(ctx, site, client.DryRunAll) // checked, defaulted, never stored
				if rejectedWith == "" {
					g.Expect(err).NotTo(HaveOccurred(), why+regenerate)
					g.Expect(site.Spec.Replicas).To(Equal(replicas), "replicas: %d came back as %d: %s", replicas, site.Spec.Replicas, why)
					return
				}
				g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "the API server accepted it (error: %v): %s"+regenerate, err, why)
				g.Expect(err.Error()).To(ContainSubstring(rejectedWith), why)
			}).WithContext(ctx).WithTimeout(served).Should(Succeed())
		},
		Entry("replicas above 5", int32(6), v1alpha1.ExposureService, "less than or equal to 5",
			"replicas go from 0 to 5: a Maximum marker on the field", SpecTimeout(harness.Timeout)),
		Entry("negative replicas", int32(-1), v1alpha1.ExposureNone, "greater than or equal to 0",
			"replicas go from 0 to 5: a Minimum marker on the field", SpecTimeout(harness.Timeout)),
		Entry("an exposure that is neither Service nor None", int32(1), v1alpha1.Exposure("Public"), `Unsupported value: "Public"`,
			"exposure is Service or None: an Enum marker on the field, its values separated by ;", SpecTimeout(harness.Timeout)),
		Entry("a Service with no web server behind it", int32(0), v1alpha1.ExposureService, "a site exposed through a Service needs at least one replica",
			"a CEL rule (XValidation) on StaticSiteSpec, with this message, sees both fields", SpecTimeout(harness.Timeout)),
		Entry("the most replicas", int32(5), v1alpha1.ExposureService, "",
			"5 replicas are allowed: a Maximum of 5 is inclusive", SpecTimeout(harness.Timeout)),
		Entry("no replicas and no Service", int32(0), v1alpha1.ExposureNone, "",
			"a site that is not exposed may have no replicas; and a replicas field tagged omitempty drops a 0, which the default then turns into 1", SpecTimeout(harness.Timeout)),
		Entry("one replica behind a Service", int32(1), v1alpha1.ExposureService, "",
			"one replica behind a Service is a valid site", SpecTimeout(harness.Timeout)),
	)

	It("fills in replicas and exposure when they are left out", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		Eventually(func(g Gomega) {
			site := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"page": "<h1>defaults</h1>"}}}
			site.SetGroupVersionKind(v1alpha1.GroupVersion.WithKind("StaticSite"))
			site.SetNamespace(ns)
			site.SetName("defaults")
			g.Expect(k8s.Create(ctx, site, client.DryRunAll)).To(Succeed())
			g.Expect(site.Object["spec"]).To(And(HaveKeyWithValue("replicas", BeNumerically("==", 1)), HaveKeyWithValue("exposure", "Service")),
				"a StaticSite with only a page should come back with replicas: 1 and exposure: Service: default markers on both fields"+regenerate)
		}).WithContext(ctx).WithTimeout(served).Should(Succeed())
	}, SpecTimeout(harness.Timeout))

	It("keeps status apart from spec (a status subresource)", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		site := newSite(ns, "status", 1, v1alpha1.ExposureService)
		Expect(k8s.Create(ctx, site)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8s.Get(ctx, client.ObjectKeyFromObject(site), site)).To(Succeed())
			site.Status.ReadyReplicas = 1
			err := k8s.Status().Update(ctx, site)
			g.Expect(err).NotTo(HaveOccurred(), "writing .../staticsites/status failed: the CRD needs a status subresource (+kubebuilder:subresource:status)"+regenerate)
		}).WithContext(ctx).WithTimeout(served).Should(Succeed())
		Expect(k8s.Get(ctx, client.ObjectKeyFromObject(site), site)).To(Succeed())
		Expect(site.Status.ReadyReplicas).To(Equal(int32(1)), "the status written through the status subresource should be stored")
		Expect(site.Generation).To(Equal(int64(1)), "a write to status must not change metadata.generation")

		site.Spec.Replicas, site.Status.ReadyReplicas = 2, 5
		Expect(k8s.Update(ctx, site)).To(Succeed())
		Expect(site.Status.ReadyReplicas).To(Equal(int32(1)), "with a status subresource, an update of the object ignores its status (only .../status writes it)")
		Expect(site.Generation).To(Equal(int64(2)), "a change of the spec should count in metadata.generation")
	}, SpecTimeout(harness.Timeout))

	It("shows Replicas, Ready and Available in kubectl get (printer columns)", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		site := newSite(ns, "columns", 3, v1alpha1.ExposureService)
		Expect(k8s.Create(ctx, site)).To(Succeed())
		site.Status = v1alpha1.StaticSiteStatus{ObservedGeneration: 1, ReadyReplicas: 2, Conditions: []metav1.Condition{
			{Type: "Progressing", Status: metav1.ConditionFalse, Reason: "Done", LastTransitionTime: metav1.Now()},
			{Type: "Available", Status: metav1.ConditionTrue, Reason: "Ready", LastTransitionTime: metav1.Now()},
		}}
		Eventually(func(g Gomega) map[string]any {
			g.Expect(k8s.Status().Update(ctx, site)).To(Succeed(), "writing the status failed: the CRD needs a status subresource"+regenerate)
			return tableRow(ctx, g, ns)
		}).WithContext(ctx).WithTimeout(served).Should(And(
			HaveKeyWithValue("Replicas", BeNumerically("==", 3)),
			HaveKeyWithValue("Ready", BeNumerically("==", 2)),
			HaveKeyWithValue("Available", "True"),
			HaveKey("Age"),
		), "kubectl get staticsites should show the columns Replicas (.spec.replicas), Ready (.status.readyReplicas), Available (the Available condition's status) and Age: printcolumn markers on StaticSite"+regenerate)
		Expect(tableRow(ctx, Default, ns)).To(HaveKeyWithValue("Age", MatchRegexp(`^[0-9]+[smhdy]`)),
			"the Age column should show how old the site is, such as 5s, not the timestamp itself: a column of type=date turns .metadata.creationTimestamp into an age"+regenerate)
	}, SpecTimeout(harness.Timeout))
})

// tableRow asks the API server for the namespace's StaticSites as kubectl get does (as a Table,
// drawn from the CRD's printer columns) and returns the first row's cells by column name.
func tableRow(ctx SpecContext, g Gomega, ns string) map[string]any {
	raw, err := cluster.Clientset.Discovery().RESTClient().Get().
		AbsPath("/apis", v1alpha1.GroupVersion.Group, v1alpha1.GroupVersion.Version, "namespaces", ns, "staticsites").
		SetHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").
		Do(ctx).Raw()
	g.Expect(err).NotTo(HaveOccurred())
	var table metav1.Table
	g.Expect(json.Unmarshal(raw, &table)).To(Succeed())
	g.Expect(table.Rows).NotTo(BeEmpty())
	row := map[string]any{}
	for i, column := range table.ColumnDefinitions {
		row[column.Name] = table.Rows[0].Cells[i]
	}
	return row
}
