package webhooks_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "workshop.local/lessons/12-webhooks/api/v1"
	"workshop.local/lessons/12-webhooks/api/v1beta1"
	"workshop.local/lessons/internal/harness"
)

// encryptionAnnotation is where v1beta1 keeps v1's spec.encryption (api/v1beta1/conversion.go).
const encryptionAnnotation = "lesson12.workshop.local/encryption"

var _ = Describe("Exercise 3: the conversion webhook", harness.Exercise(3), func() {
	var (
		ns string
		k  client.Client
	)

	// The process's CRD stores v1 and sends every v1 <-> v1beta1 conversion to this process's
	// /convert, which calls your ConvertTo and ConvertFrom. No admission webhook runs here.
	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, prefix)
		k, _ = newClient()
	})

	// readOld reads a bucket through v1beta1: the API server converts the stored v1 object.
	readOld := func(ctx context.Context, name string) *v1beta1.Bucket {
		GinkgoHelper()
		old := &v1beta1.Bucket{}
		Expect(k.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, old)).To(Succeed(),
			"reading the bucket through v1beta1 failed: the API server's call to your conversion (ConvertFrom) failed")
		return old
	}

	// readNew reads a bucket through v1, the stored version: no conversion.
	readNew := func(ctx context.Context, name string) *v1.Bucket {
		GinkgoHelper()
		b := &v1.Bucket{}
		Expect(k.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, b)).To(Succeed())
		return b
	}

	It("serves a v1 bucket at v1beta1: tier becomes class", func(ctx SpecContext) {
		stored := newBucket(ns, "stored", v1.BucketSpec{Region: "eu-west", SizeGB: 20, Tier: "archive", Tags: []string{"team-a"}})
		stored.Labels = map[string]string{"team": "a"}
		stored.Annotations = map[string]string{"note": "kept"}
		Expect(k.Create(ctx, stored)).To(Succeed())
		old := readOld(ctx, "stored")
		Expect(old.Name).To(Equal("stored"))
		Expect(old.Labels).To(Equal(map[string]string{"team": "a"}),
			"the bucket's labels read through v1beta1 are %v, stored %v: the API server keeps the labels and annotations your conversion answers with, so a conversion carries all of the metadata", old.Labels, stored.Labels)
		Expect(old.Annotations).To(Equal(map[string]string{"note": "kept"}),
			"the bucket has no spec.encryption, and read through v1beta1 its annotations are %v, stored %v: the conversion should keep the user's annotations and add none when there is nothing to keep", old.Annotations, stored.Annotations)
		Expect(old.Spec).To(Equal(v1beta1.BucketSpec{Region: "eu-west", SizeGB: 20, Class: "archive", Tags: []string{"team-a"}}),
			"v1's spec.tier is v1beta1's spec.class; every other field keeps its value")

		list := &v1beta1.BucketList{}
		Expect(k.List(ctx, list, client.InNamespace(ns))).To(Succeed(), "listing through v1beta1 converts every item")
		Expect(list.Items).To(HaveLen(1))
	}, SpecTimeout(harness.Timeout))

	It("stores what a v1beta1 client writes as v1", func(ctx SpecContext) {
		old := &v1beta1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "written-old", Labels: map[string]string{"team": "b"}},
			Spec: v1beta1.BucketSpec{Region: "eu-west", SizeGB: 30, Class: "archive"}}
		Expect(k.Create(ctx, old)).To(Succeed(), "writing through v1beta1 failed: the API server's call to your conversion (ConvertTo) failed")
		b := readNew(ctx, "written-old")
		Expect(b.Spec.Tier).To(Equal("archive"), "v1beta1's spec.class should arrive as v1's spec.tier")
		Expect(b.Labels).To(HaveKeyWithValue("team", "b"),
			"a label written through v1beta1 is not on the stored v1 bucket (labels %v): ConvertTo should carry all of the metadata", b.Labels)
		Expect(b.Spec.SizeGB).To(BeEquivalentTo(30))
		Expect(b.Spec.Encryption).To(BeEmpty())
		Expect(b.Annotations).NotTo(HaveKey(encryptionAnnotation), "the v1 object should not carry v1beta1's annotation")

		// The CRD's status lists every version that has been its storage version: only v1 here,
		// whatever version clients write through (v1beta1 writes are converted before they are
		// stored).
		crd, err := apiextensionsclient.NewForConfigOrDie(cluster.Config).ApiextensionsV1().CustomResourceDefinitions().
			Get(ctx, "buckets."+proc.group, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(crd.Status.StoredVersions).To(Equal([]string{"v1"}))
	}, SpecTimeout(harness.Timeout))

	It("loses nothing: a field v1beta1 lacks survives a write through v1beta1", func(ctx SpecContext) {
		secret := newBucket(ns, "secret", v1.BucketSpec{Region: "eu-west", SizeGB: 20, Tier: "standard", Encryption: "aes256"})
		secret.Annotations = map[string]string{"note": "kept"}
		Expect(k.Create(ctx, secret)).To(Succeed())

		old := readOld(ctx, "secret")
		Expect(old.Annotations).To(HaveKeyWithValue(encryptionAnnotation, "aes256"),
			"v1beta1 has no spec.encryption: ConvertFrom should keep it in the annotation %s", encryptionAnnotation)
		Expect(old.Annotations).To(HaveKeyWithValue("note", "kept"),
			"the user's annotation note is gone from the bucket read through v1beta1 (annotations %v): keeping encryption must not cost the annotations already there", old.Annotations)
		old.Spec.SizeGB = 40
		Expect(k.Update(ctx, old)).To(Succeed(), "writing the bucket back through v1beta1 failed")

		b := readNew(ctx, "secret")
		Expect(b.Spec.SizeGB).To(BeEquivalentTo(40), "the change made through v1beta1 should be stored")
		Expect(b.Spec.Encryption).To(Equal("aes256"),
			"spec.encryption was lost by a read and write through v1beta1: ConvertTo should restore it from the annotation")
		Expect(b.Annotations).To(Equal(map[string]string{"note": "kept"}),
			"after a write through v1beta1 the v1 bucket's annotations are %v: the user's stay, and v1beta1's %s goes once it is spec.encryption again (or v1 readers see the value twice)", b.Annotations, encryptionAnnotation)
	}, SpecTimeout(harness.Timeout))
})
