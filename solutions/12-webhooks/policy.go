package webhooks

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
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
	return &admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			// Only updates: on CREATE oldObject is null, and an expression that reads it
			// fails to evaluate (which failurePolicy Fail turns into a denial).
			MatchConstraints: &admissionregistrationv1.MatchResources{
				ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionregistrationv1.RuleWithOperations{
						Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Update},
						Rule: admissionregistrationv1.Rule{
							APIGroups:   []string{group},
							APIVersions: []string{"*"},
							Resources:   []string{"buckets"},
						},
					},
				}},
			},
			Validations: []admissionregistrationv1.Validation{{
				// has() on both sides: a bucket written without a region would otherwise
				// make the expression fail instead of compare.
				Expression: "has(object.spec.region) == has(oldObject.spec.region) && (!has(object.spec.region) || object.spec.region == oldObject.spec.region)",
				Message:    "spec.region is immutable",
				Reason:     ptr.To(metav1.StatusReasonInvalid),
			}},
			FailurePolicy: ptr.To(admissionregistrationv1.Fail),
		},
	}, nil
}

// RegionBinding returns the binding that turns the policy on in namespace.
func RegionBinding(name, policyName, namespace string) (*admissionregistrationv1.ValidatingAdmissionPolicyBinding, error) {
	return &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName: policyName,
			// The binding narrows what the policy may see; the policy's matchConstraints
			// still apply.
			MatchResources: &admissionregistrationv1.MatchResources{
				NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: namespace}},
			},
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}, nil
}
