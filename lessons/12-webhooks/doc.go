// Package webhooks is lesson 12: admission and conversion webhooks, served by your manager and
// called by the real API server. A Bucket API (api/v1, api/v1beta1) gets defaults (exercise 1),
// validation with warnings (exercise 2) and a conversion between its two versions (exercise 3)
// from webhooks your code serves; then you decide which requests the API server sends to a
// webhook and what it does when the webhook is down (exercise 4), and write one rule with no
// webhook at all, as a ValidatingAdmissionPolicy the API server runs itself (exercise 5).
//
// You edit defaulter.go, validator.go, api/v1beta1/conversion.go, scope.go and policy.go. This
// file, setup.go, the api types and the serving package need no edits.
package webhooks

import "fmt"

// errNotImplemented is what every unfinished exercise returns, so the specs can say which
// exercise is still to do.
func errNotImplemented(exercise int) error {
	return fmt.Errorf("exercise %d is not implemented yet: see TODO(exercise %d)", exercise, exercise)
}
