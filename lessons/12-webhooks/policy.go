package webhooks

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
)

// Exercise 5: the same kind of rule without a webhook.
//
// A ValidatingAdmissionPolicy holds CEL expressions the API server evaluates itself: nothing to
// serve, no certificate, no network hop, nothing to be down. The policy says what it checks and
// which requests it may see (matchConstraints); it does nothing until a
// ValidatingAdmissionPolicyBinding binds it, narrows it (matchResources) and says what a
// violation does (validationActions: Deny, Warn, Audit).
//
// The rule: a Bucket's spec.region is immutable (exercise 2's rule, here in CEL).
//   - RegionPolicy: named name, matches UPDATE of "buckets" in group (every version); one
//     validation comparing object.spec.region with oldObject.spec.region, whose message names
//     spec.region; failurePolicy Fail.
//   - RegionBinding: named name, binds policyName, only in namespace (by the label
//     kubernetes.io/metadata.name), and denies violations.

// RegionPolicy returns the policy that keeps a Bucket's region.
func RegionPolicy(name, group string) (*admissionregistrationv1.ValidatingAdmissionPolicy, error) {
	// TODO(exercise 5): the policy: matchConstraints, validations, failurePolicy.
	return nil, errNotImplemented(5)
}

// RegionBinding returns the binding that turns the policy on in namespace.
func RegionBinding(name, policyName, namespace string) (*admissionregistrationv1.ValidatingAdmissionPolicyBinding, error) {
	// TODO(exercise 5): the binding: policyName, matchResources, validationActions.
	return nil, errNotImplemented(5)
}
