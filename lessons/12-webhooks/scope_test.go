package webhooks_test

import (
	"context"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	webhooks "workshop.local/lessons/12-webhooks"
	v1 "workshop.local/lessons/12-webhooks/api/v1"
	"workshop.local/lessons/12-webhooks/api/v1beta1"
	"workshop.local/lessons/internal/harness"
)

// The specs' own webhook for exercise 4 (yours is only its scope): it refuses buckets over
// MaxSizeGB, so a refusal shows the API server called it.
const (
	limitPath = "/size-limit"
	slowPath  = "/slow"
)

type sizeLimit struct{}

func (sizeLimit) ValidateCreate(_ context.Context, b *v1.Bucket) (admission.Warnings, error) {
	return nil, check(b)
}
func (sizeLimit) ValidateUpdate(_ context.Context, _, b *v1.Bucket) (admission.Warnings, error) {
	return nil, check(b)
}
func (sizeLimit) ValidateDelete(context.Context, *v1.Bucket) (admission.Warnings, error) {
	return nil, nil
}

const limitMessage = "size-limit: too big"

func check(b *v1.Bucket) error {
	if b.Spec.SizeGB > webhooks.MaxSizeGB {
		return fmt.Errorf("%s (%d GB)", limitMessage, b.Spec.SizeGB)
	}
	return nil
}

var _ = Describe("Exercise 4: a webhook's scope and failure policy", harness.Exercise(4), func() {
	var (
		ns   string
		k    client.Client
		base string
		stop func() error
	)

	// Each spec runs a webhook server of its own (it stops it to see what the API server does
	// then) and a configuration whose webhook your Scope narrows.
	BeforeEach(func(ctx SpecContext) {
		ns = cluster.Namespace(ctx, prefix)
		k, _ = newClient()
		mgr, url := newWebhookManager()
		mgr.GetWebhookServer().Register(limitPath, admission.WithValidator[*v1.Bucket](proc.scheme, sizeLimit{}))
		mgr.GetWebhookServer().Register(slowPath, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done() // never answers: the API server gives up after timeoutSeconds
		}))
		base = url
		stop = startWebhookManager(ctx, mgr, base)
	})

	// scoped creates the configuration with your Scope applied to a webhook calling path.
	scoped := func(ctx context.Context, path string) {
		GinkgoHelper()
		w := admissionregistrationv1.ValidatingWebhook{
			Name: "scope." + proc.group, ClientConfig: clientConfig(base, path), AdmissionReviewVersions: reviewVersions,
		}
		Expect(webhooks.Scope(&w, proc.group, ns)).To(Succeed())
		createValidatingConfig(ctx, k, ns, base, w)
	}

	big := func(ns, name string) *v1.Bucket {
		spec := valid()
		spec.SizeGB = 5000
		return newBucket(ns, name, spec)
	}

	It("sends the buckets of its namespace to the webhook, and no others", func(ctx SpecContext) {
		other := cluster.Namespace(ctx, prefix)
		scoped(ctx, limitPath)
		Expect(k.Create(ctx, big(ns, "mine"))).To(MatchError(ContainSubstring(limitMessage)),
			"a create of a bucket in the spec's namespace should reach the webhook: check the rules (operations, group, resource)")
		Expect(k.Create(ctx, big(other, "theirs"))).To(Succeed(),
			"a bucket in another namespace reached the webhook: narrow it with a namespaceSelector on %s", "kubernetes.io/metadata.name")
	}, SpecTimeout(harness.Timeout))

	It("checks a bucket written through v1beta1 too, as the v1 object its webhook decodes", func(ctx SpecContext) {
		scoped(ctx, limitPath)
		old := &v1beta1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "written-old"},
			Spec: v1beta1.BucketSpec{Region: "eu-west", SizeGB: 5000, Class: "archive"}}
		Expect(k.Create(ctx, old)).To(MatchError(ContainSubstring(limitMessage)),
			"a too big bucket written through v1beta1 should be refused by the webhook, which decodes v1 Buckets: "+
				"list only v1 in the rule's apiVersions, and the API server converts (matchPolicy Equivalent); "+
				"with \"*\" it sends the v1beta1 object as it is")
	}, SpecTimeout(harness.Timeout))

	It("fails closed when its server is down", func(ctx SpecContext) {
		scoped(ctx, limitPath)
		Expect(stop()).To(Succeed())
		err := k.Create(ctx, newBucket(ns, "unchecked", valid()))
		Expect(err).To(HaveOccurred(), "with the webhook's server gone a bucket got in unchecked: a safety rule needs failurePolicy Fail")
		Expect(err).To(MatchError(ContainSubstring("failed calling webhook")))
	}, SpecTimeout(harness.Timeout))

	It("skips updates that leave the spec alone", func(ctx SpecContext) {
		scoped(ctx, limitPath)
		b := newBucket(ns, "labelled", valid())
		Expect(k.Create(ctx, b)).To(Succeed(), "a valid bucket should be accepted")
		Expect(stop()).To(Succeed())

		b.Labels = map[string]string{"team": "a"}
		Expect(k.Update(ctx, b)).To(Succeed(),
			"a label-only update was sent to the (stopped) webhook: a matchCondition should skip updates whose spec is unchanged")
		b.Spec.SizeGB = 30
		Expect(k.Update(ctx, b)).To(MatchError(ContainSubstring("failed calling webhook")),
			"an update that changes the spec must still reach the webhook (and fail closed while it is down)")
	}, SpecTimeout(harness.Timeout))

	It("gives up on a slow webhook after its timeout", func(ctx SpecContext) {
		scoped(ctx, slowPath)
		callCtx, cancel := context.WithTimeout(ctx, 8*time.Second)
		defer cancel()
		start := time.Now()
		err := k.Create(callCtx, newBucket(ns, "slow", valid()))
		took := time.Since(start)
		Expect(err).To(HaveOccurred(), "a webhook that never answers must not let the bucket in")
		Expect(took).To(BeNumerically("<", time.Duration(webhooks.ScopeTimeoutSeconds+2)*time.Second),
			"the API server waited %s for the webhook: set timeoutSeconds to ScopeTimeoutSeconds (the default is 10 s)", took.Round(time.Second))
		Expect(took).To(BeNumerically(">=", time.Duration(webhooks.ScopeTimeoutSeconds-1)*time.Second),
			"the API server gave up after only %s: set timeoutSeconds to ScopeTimeoutSeconds", took.Round(time.Second))
	}, SpecTimeout(harness.Timeout))

	It("lets dry-run requests through a webhook without side effects", func(ctx SpecContext) {
		scoped(ctx, limitPath)
		Expect(k.Create(ctx, newBucket(ns, "dry", valid()), client.DryRunAll)).To(Succeed(),
			"a dry-run create was refused: a dry run that matches a webhook with side effects is refused (sideEffects None or NoneOnDryRun)")
		Expect(k.Create(ctx, big(ns, "dry-big"), client.DryRunAll)).To(MatchError(ContainSubstring(limitMessage)),
			"a dry run is still checked")
	}, SpecTimeout(harness.Timeout))
})
