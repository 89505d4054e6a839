package webhooks

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// Exercise 4: which requests reach a webhook, and what happens when it is down.
//
// The API server sends a request to a webhook only when the webhook's rules (operations, API
// groups, versions, resources, scope), its namespaceSelector, its objectSelector and its
// matchConditions (CEL) all match. Everything else never leaves the API server, so a narrow
// webhook is cheaper and, above all, safer: a webhook that fails closed (failurePolicy Fail)
// and whose server is gone blocks every request it matches.
//
// Scope fills in those fields of w, a validating webhook whose name, clientConfig and
// admissionReviewVersions the caller has set, for Buckets of group in namespace:
//   - rules: CREATE and UPDATE of "buckets" in group, version v1, namespaced: the webhook
//     decodes v1 Buckets, and the API server (matchPolicy Equivalent, the default) converts a
//     write through v1beta1 to v1 before it calls the webhook;
//   - namespaceSelector: only namespace (every namespace carries the label
//     kubernetes.io/metadata.name with its own name);
//   - matchConditions: skip updates that leave spec unchanged (a label or an annotation
//     changed): name the condition "spec-changed";
//   - failurePolicy: Fail, this check is a safety rule, so no bucket passes unchecked;
//   - sideEffects: None, the webhook changes nothing else, so dry-run requests may call it;
//   - timeoutSeconds: ScopeTimeoutSeconds, a slow webhook slows every write it matches.

// ScopeTimeoutSeconds is how long the API server waits for the webhook.
const ScopeTimeoutSeconds = 3

// Scope narrows w to Buckets of group in namespace and sets how it fails.
func Scope(w *admissionregistrationv1.ValidatingWebhook, group, namespace string) error {
	w.Rules = []admissionregistrationv1.RuleWithOperations{{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
		Rule: admissionregistrationv1.Rule{
			APIGroups:   []string{group},
			APIVersions: []string{"v1"},
			Resources:   []string{"buckets"},
			Scope:       ptr.To(admissionregistrationv1.NamespacedScope),
		},
	}}
	// The API server sets this label on every namespace, to its name.
	w.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: namespace}}
	// oldObject is null on CREATE, so the condition looks at it only for updates. A condition
	// that evaluates to false skips the webhook; one that fails to evaluate follows the
	// failurePolicy.
	w.MatchConditions = []admissionregistrationv1.MatchCondition{{
		Name:       "spec-changed",
		Expression: "request.operation != 'UPDATE' || object.spec != oldObject.spec",
	}}
	w.FailurePolicy = ptr.To(admissionregistrationv1.Fail)
	w.SideEffects = ptr.To(admissionregistrationv1.SideEffectClassNone)
	w.TimeoutSeconds = ptr.To[int32](ScopeTimeoutSeconds)
	return nil
}
