package webhooks_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	webhooks "workshop.local/lessons/12-webhooks"
	v1 "workshop.local/lessons/12-webhooks/api/v1"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 1: the defaulting webhook", harness.Exercise(1), func() {
	var (
		ns string
		k  client.Client
	)

	// Each spec gets a MutatingWebhookConfiguration that sends creates and updates of Buckets
	// in its namespace to your BucketDefaulter, served by this process's manager.
	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, prefix)
		k, _ = newClient()
		createMutatingConfig(ctx, k, ns, admissionregistrationv1.MutatingWebhook{
			Name: "default." + proc.group, ClientConfig: clientConfig(proc.server, webhooks.DefaultPath),
			Rules:                   bucketRule(admissionregistrationv1.Create, admissionregistrationv1.Update),
			NamespaceSelector:       inNamespace(ns),
			FailurePolicy:           ptr.To(admissionregistrationv1.Fail),
			SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNone),
			AdmissionReviewVersions: reviewVersions, TimeoutSeconds: ptr.To[int32](5),
		})
	})

	// create creates the bucket and fails the spec with the API server's answer if it refused.
	create := func(ctx context.Context, b *v1.Bucket) {
		GinkgoHelper()
		Expect(k.Create(ctx, b)).To(Succeed(), "the API server refused the bucket, and only the defaulting webhook was asked: a defaulter fills in, it never refuses")
	}

	It("fills in what the user left out", func(ctx SpecContext) {
		b := newBucket(ns, "empty", v1.BucketSpec{Region: "eu-west"})
		create(ctx, b)
		// Create returns the object as the API server stored it, defaults and all.
		Expect(b.Spec.SizeGB).To(BeEquivalentTo(webhooks.DefaultSizeGB), "spec.sizeGB left out should be defaulted to DefaultSizeGB")
		Expect(b.Spec.Tier).To(Equal(webhooks.TierStandard), "spec.tier left out should be defaulted to standard")
		Expect(b.Spec.Tags).To(Equal([]string{webhooks.ManagedTag}), "spec.tags should hold the ManagedTag")
	}, SpecTimeout(harness.Timeout))

	It("keeps what the user set", func(ctx SpecContext) {
		b := newBucket(ns, "set", v1.BucketSpec{Region: "eu-west", SizeGB: 50, Tier: webhooks.TierArchive, Tags: []string{"team-a"}})
		create(ctx, b)
		Expect(b.Spec.SizeGB).To(BeEquivalentTo(50), "a size the user set is theirs: the defaulter must not overwrite it")
		Expect(b.Spec.Tier).To(Equal(webhooks.TierArchive), "a tier the user set is theirs: the defaulter must not overwrite it")
		Expect(b.Spec.Tags).To(Equal([]string{"team-a", webhooks.ManagedTag}), "the user's tags stay, ManagedTag comes after them")
	}, SpecTimeout(harness.Timeout))

	It("leaves a value the user set to validation, even one validation will refuse", func(ctx SpecContext) {
		// Only the defaulting webhook runs in these specs: what it leaves is what is stored.
		b := newBucket(ns, "wrong", v1.BucketSpec{Region: "eu-west", SizeGB: -5, Tier: "gold"})
		create(ctx, b)
		Expect(b.Spec.SizeGB).To(BeEquivalentTo(-5),
			"the user asked for a size of -5 and the defaulter changed it to %d: a default is for a field left out; a wrong value is validation's to refuse, so the user learns of it", b.Spec.SizeGB)
		Expect(b.Spec.Tier).To(Equal("gold"),
			"the user asked for tier gold and the defaulter changed it to %q: a default is for a field left out; a tier validation does not know is its to refuse", b.Spec.Tier)
	}, SpecTimeout(harness.Timeout))

	It("adds ManagedTag only when no tag is it, wherever the user put it", func(ctx SpecContext) {
		tags := []string{"team-a", webhooks.ManagedTag, "team-b"}
		b := newBucket(ns, "tagged", v1.BucketSpec{Region: "eu-west", Tags: tags})
		create(ctx, b)
		Expect(b.Spec.Tags).To(Equal(tags),
			"the user's tags already held ManagedTag (not last); the stored tags should be the user's, unchanged, with no second ManagedTag")
	}, SpecTimeout(harness.Timeout))

	It("is idempotent: an update runs it again on a defaulted bucket", func(ctx SpecContext) {
		b := newBucket(ns, "again", v1.BucketSpec{Region: "eu-west", Tags: []string{"team-a"}})
		create(ctx, b)
		for range 2 {
			b.Labels = map[string]string{"touched": randomHex(2)}
			Expect(k.Update(ctx, b)).To(Succeed())
		}
		Expect(b.Spec.Tags).To(Equal([]string{"team-a", webhooks.ManagedTag}),
			"after two updates the tags should be unchanged: the defaulter runs on every update and must add ManagedTag only when it is missing")
		Expect(b.Spec.SizeGB).To(BeEquivalentTo(webhooks.DefaultSizeGB))
	}, SpecTimeout(harness.Timeout))

	It("defaults on update too", func(ctx SpecContext) {
		b := newBucket(ns, "cleared", v1.BucketSpec{Region: "eu-west", SizeGB: 70, Tier: webhooks.TierArchive})
		create(ctx, b)
		b.Spec.SizeGB, b.Spec.Tier = 0, ""
		Expect(k.Update(ctx, b)).To(Succeed())
		Expect(b.Spec.SizeGB).To(BeEquivalentTo(webhooks.DefaultSizeGB), "an update that clears spec.sizeGB should get the default back")
		Expect(b.Spec.Tier).To(Equal(webhooks.TierStandard), "an update that clears spec.tier should get the default back")
	}, SpecTimeout(harness.Timeout))
})
