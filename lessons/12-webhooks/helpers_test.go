package webhooks_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "workshop.local/lessons/12-webhooks/api/v1"
)

// prefix starts the name of every namespace these specs create.
const prefix = "lesson12"

// warningLog records the warnings the API server sends back (the Warning header), which is
// where an admission webhook's warnings arrive.
type warningLog struct {
	mu   sync.Mutex
	seen []string
}

func (w *warningLog) HandleWarningHeaderWithContext(_ context.Context, _ int, _ string, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, text)
}

// Take returns the warnings recorded so far and forgets them.
func (w *warningLog) Take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	seen := w.seen
	w.seen = nil
	return seen
}

// newClient is a client for Buckets (both versions) and built-in types that talks to the API
// server directly and records its warnings.
func newClient() (client.Client, *warningLog) {
	GinkgoHelper()
	warnings := &warningLog{}
	cfg := rest.CopyConfig(cluster.Config)
	cfg.WarningHandlerWithContext = warnings
	k, err := client.New(cfg, client.Options{Scheme: proc.scheme})
	Expect(err).NotTo(HaveOccurred())
	return k, warnings
}

// newBucket is a v1 Bucket named name in ns.
func newBucket(ns, name string, spec v1.BucketSpec) *v1.Bucket {
	return &v1.Bucket{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
}

// valid is a spec exercise 2's rules accept.
func valid() v1.BucketSpec {
	return v1.BucketSpec{Region: "eu-west", SizeGB: 20, Tier: "standard"}
}

// inNamespace selects the namespace ns by the label the API server gives every namespace.
func inNamespace(ns string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: ns}}
}

// bucketRule matches the given operations on Buckets of the process's group.
func bucketRule(ops ...admissionregistrationv1.OperationType) []admissionregistrationv1.RuleWithOperations {
	return []admissionregistrationv1.RuleWithOperations{{
		Operations: ops,
		Rule: admissionregistrationv1.Rule{
			APIGroups: []string{proc.group}, APIVersions: []string{"v1"}, Resources: []string{"buckets"},
			Scope: ptr.To(admissionregistrationv1.NamespacedScope),
		},
	}}
}

// clientConfig points the API server at path on the server at base, trusting the process's CA.
func clientConfig(base, path string) admissionregistrationv1.WebhookClientConfig {
	return admissionregistrationv1.WebhookClientConfig{URL: ptr.To(base + path), CABundle: proc.caBundle}
}

// configName names a spec's cluster-wide configuration after its namespace, so it is unique
// and says which lesson and spec made it.
func configName(ns string) string { return ns + "." + proc.group }

// reviewVersions are the AdmissionReview versions the specs' webhooks accept.
var reviewVersions = []string{"v1"}

// createValidatingConfig creates a ValidatingWebhookConfiguration holding the canary (first)
// and the given webhooks, deletes it when the spec ends (before the namespace goes, so no
// webhook of a stopped server blocks the namespace's cleanup), and returns once the API
// server uses it.
func createValidatingConfig(ctx context.Context, k client.Client, ns, base string, hooks ...admissionregistrationv1.ValidatingWebhook) {
	GinkgoHelper()
	canary := admissionregistrationv1.ValidatingWebhook{
		Name: "canary." + proc.group, ClientConfig: clientConfig(proc.server, canaryPath),
		Rules: bucketRule(admissionregistrationv1.Create), NamespaceSelector: inNamespace(ns),
		ObjectSelector: &metav1.LabelSelector{MatchLabels: map[string]string{probeLabel: "true"}},
		FailurePolicy:  ptr.To(admissionregistrationv1.Fail), SideEffects: ptr.To(admissionregistrationv1.SideEffectClassNone),
		AdmissionReviewVersions: reviewVersions, TimeoutSeconds: ptr.To[int32](5),
	}
	cfg := &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: configName(ns), Labels: proc.labels},
		Webhooks:   append([]admissionregistrationv1.ValidatingWebhook{canary}, hooks...),
	}
	Expect(k.Create(ctx, cfg)).To(Succeed(), "the API server refused the webhook configuration")
	DeferCleanup(func(ctx SpecContext) { Expect(client.IgnoreNotFound(k.Delete(ctx, cfg))).To(Succeed()) })
	waitActive(ctx, k, ns)
}

// createMutatingConfig is createValidatingConfig for mutating webhooks (the canary first:
// mutating webhooks run in order, and the canary's denial ends a probe before the others).
func createMutatingConfig(ctx context.Context, k client.Client, ns string, hooks ...admissionregistrationv1.MutatingWebhook) {
	GinkgoHelper()
	canary := admissionregistrationv1.MutatingWebhook{
		Name: "canary." + proc.group, ClientConfig: clientConfig(proc.server, canaryPath),
		Rules: bucketRule(admissionregistrationv1.Create), NamespaceSelector: inNamespace(ns),
		ObjectSelector: &metav1.LabelSelector{MatchLabels: map[string]string{probeLabel: "true"}},
		FailurePolicy:  ptr.To(admissionregistrationv1.Fail), SideEffects: ptr.To(admissionregistrationv1.SideEffectClassNone),
		AdmissionReviewVersions: reviewVersions, TimeoutSeconds: ptr.To[int32](5),
	}
	cfg := &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: configName(ns), Labels: proc.labels},
		Webhooks:   append([]admissionregistrationv1.MutatingWebhook{canary}, hooks...),
	}
	Expect(k.Create(ctx, cfg)).To(Succeed(), "the API server refused the webhook configuration")
	DeferCleanup(func(ctx SpecContext) { Expect(client.IgnoreNotFound(k.Delete(ctx, cfg))).To(Succeed()) })
	waitActive(ctx, k, ns)
}

// waitActive waits until the API server calls the canary for a dry-run probe in ns: the
// configuration is then loaded, webhooks and all.
func waitActive(ctx context.Context, k client.Client, ns string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		probe := newBucket(ns, "probe-"+randomHex(3), valid())
		probe.Labels = map[string]string{probeLabel: "true"}
		err := k.Create(ctx, probe, client.DryRunAll)
		if err != nil && !strings.Contains(err.Error(), canaryMessage) {
			// Not yet loaded, the probe would pass: refused otherwise, the configuration is
			// loaded and refuses what it should not (a matchCondition that fails, say).
			StopTrying("the API server refused a valid dry-run create in the spec's namespace: " + err.Error()).Now()
		}
		g.Expect(err).To(MatchError(ContainSubstring(canaryMessage)))
	}).WithContext(ctx).WithTimeout(20*time.Second).Should(Succeed(), "the API server did not start using the webhook configuration")
}

// causeFields lists the field paths of an API status error's causes.
func causeFields(err error) []string {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Details == nil {
		return nil
	}
	var fields []string
	for _, c := range status.Status().Details.Causes {
		fields = append(fields, c.Field)
	}
	return fields
}

// containing matches a list of strings with one that contains sub.
func containing(sub string) OmegaMatcher { return ContainElement(ContainSubstring(sub)) }
