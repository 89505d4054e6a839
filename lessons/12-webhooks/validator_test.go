package webhooks_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	webhooks "workshop.local/lessons/12-webhooks"
	v1 "workshop.local/lessons/12-webhooks/api/v1"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 2: the validating webhook", harness.Exercise(2), func() {
	var (
		ns       string
		k        client.Client
		warnings *warningLog
	)

	// Each spec gets a ValidatingWebhookConfiguration that sends creates, updates and deletes
	// of Buckets in its namespace to your BucketValidator.
	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, prefix)
		k, warnings = newClient()
		createValidatingConfig(ctx, k, ns, proc.server, admissionregistrationv1.ValidatingWebhook{
			Name: "validate." + proc.group, ClientConfig: clientConfig(proc.server, webhooks.ValidatePath),
			Rules:                   bucketRule(admissionregistrationv1.Create, admissionregistrationv1.Update, admissionregistrationv1.Delete),
			NamespaceSelector:       inNamespace(ns),
			FailurePolicy:           ptr.To(admissionregistrationv1.Fail),
			SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNone),
			AdmissionReviewVersions: reviewVersions, TimeoutSeconds: ptr.To[int32](5),
		})
		warnings.Take()
	})

	// expectInvalid checks that err is a 422 Invalid whose causes name field.
	expectInvalid := func(err error, field, what string) {
		GinkgoHelper()
		Expect(err).To(HaveOccurred(), "%s should be refused", what)
		Expect(err).NotTo(MatchError(ContainSubstring("not implemented")), "the validator is still the stub")
		Expect(apierrors.IsInvalid(err)).To(BeTrue(),
			"%s should be refused as 422 Invalid (apierrors.NewInvalid with a field.ErrorList), as the API server's own validation answers; got: %v", what, err)
		Expect(causeFields(err)).To(ContainElement(field), "%s: the error's causes should name the field %s; got: %v", what, field, err)
	}

	It("refuses a bad bucket with one 422 that names every field", func(ctx SpecContext) {
		err := k.Create(ctx, newBucket(ns, "bad", v1.BucketSpec{SizeGB: 5000, Tier: "gold"}))
		expectInvalid(err, "spec.region", "a bucket without a region")
		expectInvalid(err, "spec.sizeGB", "a bucket of 5000 GB")
		expectInvalid(err, "spec.tier", "a bucket of tier gold")
	}, SpecTimeout(harness.Timeout))

	It("accepts a premium bucket, with a warning", func(ctx SpecContext) {
		spec := valid()
		spec.SizeGB = 600
		Expect(k.Create(ctx, newBucket(ns, "big", spec))).To(Succeed(), "a 600 GB bucket is valid")
		Expect(warnings.Take()).To(containing("premium"), "the client should get a warning that says premium")
		Expect(k.Create(ctx, newBucket(ns, "small", valid()))).To(Succeed(), "a 20 GB standard bucket in a region is valid")
		Expect(warnings.Take()).To(BeEmpty(), "a bucket under PremiumSizeGB deserves no warning")
	}, SpecTimeout(harness.Timeout))

	It("draws the size's limits where the README does: 1 and MaxSizeGB allowed, premium above PremiumSizeGB", func(ctx SpecContext) {
		for _, size := range []int32{1, webhooks.PremiumSizeGB, webhooks.PremiumSizeGB + 1, webhooks.MaxSizeGB} {
			spec := valid()
			spec.SizeGB = size
			err := k.Create(ctx, newBucket(ns, fmt.Sprintf("size-%d", size), spec))
			Expect(err).NotTo(HaveOccurred(), "a bucket of %d GB is within 1 to %d GB and should be accepted; got: %v", size, webhooks.MaxSizeGB, err)
			got := warnings.Take()
			if size > webhooks.PremiumSizeGB {
				Expect(got).To(containing("premium"), "a bucket of %d GB is above PremiumSizeGB (%d): the client should be warned of the premium rate", size, webhooks.PremiumSizeGB)
			} else {
				Expect(got).To(BeEmpty(), "a bucket of %d GB is not above PremiumSizeGB (%d) and deserves no warning; the client got %q", size, webhooks.PremiumSizeGB, got)
			}
		}
		for _, size := range []int32{0, -1, webhooks.MaxSizeGB + 1} {
			spec := valid()
			spec.SizeGB = size
			expectInvalid(k.Create(ctx, newBucket(ns, fmt.Sprintf("bad-size-%d", size+2), spec)), "spec.sizeGB",
				fmt.Sprintf("a bucket of %d GB (only this validating webhook runs here: a 0 that reaches it is not left out, it is 0)", size))
		}
	}, SpecTimeout(harness.Timeout))

	It("keeps the region, and checks every update like a create", func(ctx SpecContext) {
		b := newBucket(ns, "moving", valid())
		Expect(k.Create(ctx, b)).To(Succeed(), "a valid bucket should be accepted")

		moved := b.DeepCopy()
		moved.Spec.Region = "us-east"
		expectInvalid(k.Update(ctx, moved), "spec.region", "changing spec.region")

		huge := b.DeepCopy()
		huge.Spec.SizeGB = 5000
		expectInvalid(k.Update(ctx, huge), "spec.sizeGB", "an update to 5000 GB")

		grown := b.DeepCopy()
		grown.Spec.SizeGB = 40
		Expect(k.Update(ctx, grown)).To(Succeed(), "growing a bucket within the limits is a valid update")
	}, SpecTimeout(harness.Timeout))

	It("lets the tier go to archive, never back", func(ctx SpecContext) {
		b := newBucket(ns, "tiers", valid())
		Expect(k.Create(ctx, b)).To(Succeed())
		b.Spec.Tier = webhooks.TierArchive
		Expect(k.Update(ctx, b)).To(Succeed(), "standard to archive is allowed")
		b.Spec.Tier = webhooks.TierStandard
		expectInvalid(k.Update(ctx, b), "spec.tier", "archive back to standard")
	}, SpecTimeout(harness.Timeout))

	It("refuses to delete a protected bucket, and warns when an archive goes", func(ctx SpecContext) {
		b := newBucket(ns, "kept", valid())
		b.Labels = map[string]string{webhooks.ProtectedLabel: "true"}
		b.Spec.Tier = webhooks.TierArchive
		Expect(k.Create(ctx, b)).To(Succeed())
		err := k.Delete(ctx, b)
		Expect(err).To(HaveOccurred(), "a bucket labelled %s=true must not be deleted", webhooks.ProtectedLabel)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "deleting a protected bucket should be Forbidden; got: %v", err)
		Expect(err.Error()).To(ContainSubstring(webhooks.ProtectedLabel), "the denial should name the label to remove")
		warnings.Take()

		b.Labels = map[string]string{webhooks.ProtectedLabel: "false"}
		Expect(k.Update(ctx, b)).To(Succeed())
		err = k.Delete(ctx, b)
		Expect(err).NotTo(HaveOccurred(), "the bucket is labelled %s=false, and only the value true protects it: the delete should pass; got: %v", webhooks.ProtectedLabel, err)
		warnings.Take()

		b = newBucket(ns, "archived", valid())
		b.Spec.Tier = webhooks.TierArchive
		Expect(k.Create(ctx, b)).To(Succeed())
		warnings.Take()
		Expect(k.Delete(ctx, b)).To(Succeed(), "a bucket without the protected label may go")
		Expect(warnings.Take()).To(containing("archive"), "deleting an archive tier bucket should warn, saying archive")
	}, SpecTimeout(harness.Timeout))
})
