package webhooks

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
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
	// TODO(exercise 4): set w.Rules, w.NamespaceSelector, w.MatchConditions,
	// w.FailurePolicy, w.SideEffects and w.TimeoutSeconds.
	return errNotImplemented(4)
}
