package webhooks_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	webhooks "workshop.local/lessons/12-webhooks"
	v1 "workshop.local/lessons/12-webhooks/api/v1"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 5: a ValidatingAdmissionPolicy instead of a webhook", harness.Exercise(5), func() {
	var (
		ns       string
		k        client.Client
		warnings *warningLog
	)

	// Each spec applies your policy and binding (named after its namespace, deleted when it
	// ends) and waits until the API server enforces them in its namespace. No webhook server
	// is involved: the API server evaluates the CEL itself.
	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, prefix)
		k, warnings = newClient()
		name := configName(ns)
		policy, err := webhooks.RegionPolicy(name, proc.group)
		Expect(err).NotTo(HaveOccurred())
		binding, err := webhooks.RegionBinding("binding."+name, name, ns)
		Expect(err).NotTo(HaveOccurred())
		for _, obj := range []client.Object{policy, binding} {
			obj.SetLabels(proc.labels)
			Expect(k.Create(ctx, obj)).To(Succeed(), "the API server refused your %T", obj)
			DeferCleanup(func(ctx SpecContext) { Expect(client.IgnoreNotFound(k.Delete(ctx, obj))).To(Succeed()) })
		}
	})

	// moveRegion tries (dry run) to change the region of a bucket in namespace.
	moveRegion := func(ctx context.Context, b *v1.Bucket) error {
		moved := b.DeepCopy()
		moved.Spec.Region = "us-east"
		return k.Update(ctx, moved, client.DryRunAll)
	}

	// enforced creates a bucket in namespace and waits until the policy refuses to move it.
	// A warning instead of a refusal ends the wait at once: the policy is bound, but warns.
	enforced := func(ctx context.Context, namespace string) *v1.Bucket {
		GinkgoHelper()
		b := newBucket(namespace, "placed", valid())
		Expect(k.Create(ctx, b)).To(Succeed())
		Eventually(func(g Gomega) {
			err := moveRegion(ctx, b)
			if err == nil && len(warnings.Take()) > 0 {
				StopTrying("the region change was let through with a warning: a binding's validationActions must include Deny").Now()
			}
			g.Expect(err).To(HaveOccurred(), "the region change was let through")
		}).WithContext(ctx).WithTimeout(10*time.Second).Should(Succeed(),
			"the API server did not refuse a region change: is the policy bound (policyName), matching UPDATE of buckets, and denying?")
		return b
	}

	It("refuses to move a bucket to another region", func(ctx SpecContext) {
		b := enforced(ctx, ns)
		err := moveRegion(ctx, b)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "the refusal should be 422 Invalid (the validation's reason); got: %v", err)
		Expect(err.Error()).To(ContainSubstring("spec.region"), "the refusal's message should name spec.region")
	}, SpecTimeout(harness.Timeout))

	It("lets new buckets and other changes through", func(ctx SpecContext) {
		b := enforced(ctx, ns)
		Expect(k.Create(ctx, newBucket(ns, "fresh", valid()))).To(Succeed(),
			"a new bucket was refused: on CREATE there is no oldObject, so a rule that reads it must not run for creates")
		b.Spec.SizeGB = 80
		Expect(k.Update(ctx, b)).To(Succeed(), "an update that keeps the region should pass")
	}, SpecTimeout(harness.Timeout))

	It("keeps a region that is not there as well: none may not become one, one may not become none", func(ctx SpecContext) {
		enforced(ctx, ns)
		// Only the policy runs here (no validating webhook), so a bucket without a region exists.
		spec := valid()
		spec.Region = ""
		b := newBucket(ns, "nowhere", spec)
		Expect(k.Create(ctx, b)).To(Succeed())
		grown := b.DeepCopy()
		grown.Spec.SizeGB = 40
		err := k.Update(ctx, grown, client.DryRunAll)
		Expect(err).NotTo(HaveOccurred(),
			"a bucket without a region was refused an update that left the region alone: a rule must read an optional field only where it is there (has()); got: %v", err)
		placed := b.DeepCopy()
		placed.Spec.Region = "eu-west"
		Expect(k.Update(ctx, placed, client.DryRunAll)).NotTo(Succeed(), "a bucket without a region was given one: that changes the region too")

		c := newBucket(ns, "cleared", valid())
		Expect(k.Create(ctx, c)).To(Succeed())
		c.Spec.Region = ""
		Expect(k.Update(ctx, c, client.DryRunAll)).NotTo(Succeed(),
			"an update that removed spec.region was let through: a region that goes away has changed as much as one that moves")
	}, SpecTimeout(harness.Timeout))

	It("is bound to its namespace only", func(ctx SpecContext) {
		other := cluster.Namespace(ctx, prefix)
		enforced(ctx, ns)
		b := newBucket(other, "elsewhere", valid())
		Expect(k.Create(ctx, b)).To(Succeed())
		Expect(moveRegion(ctx, b)).To(Succeed(),
			"the policy refused a change in another namespace: the binding's matchResources should select only its namespace")
	}, SpecTimeout(harness.Timeout))
})
