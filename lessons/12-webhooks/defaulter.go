package webhooks

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	v1 "workshop.local/lessons/12-webhooks/api/v1"
)

// Exercise 1: defaults, applied by the API server through a mutating webhook.
//
// The API server sends every matching create and update to the webhook with the object it
// decoded from the request: for a custom resource, fields the CRD's schema does not know are
// already pruned and the schema's own defaults (a field's `default:`) already filled in
// (apiextensions-apiserver's customresource_handler.go); the webhook is for the defaults a schema
// cannot express. controller-runtime decodes the object, calls Default, and answers with a JSON
// patch from the object it received to the one Default left. So Default only changes the object in
// place. It runs on every create AND every update, on objects it has already defaulted, so it
// must be idempotent: running it twice gives what running it once gave. And it fills in only
// what the user left out: a value the user set is theirs.
//
// The defaults of a Bucket:
//   - Spec.SizeGB: DefaultSizeGB when 0 (left out);
//   - Spec.Tier: "standard" when empty;
//   - Spec.Tags: contains ManagedTag (added once, after the user's tags).

// DefaultSizeGB is a bucket's size when the user gives none.
const DefaultSizeGB = 10

// ManagedTag is the tag every bucket carries.
const ManagedTag = "lesson12"

// BucketDefaulter fills in a Bucket's defaults.
type BucketDefaulter struct{}

// Compile-time check: BucketDefaulter is what WebhookBuilder.WithDefaulter takes.
var _ admission.Defaulter[*v1.Bucket] = &BucketDefaulter{}

// Default sets the bucket's defaults in place.
func (d *BucketDefaulter) Default(ctx context.Context, bucket *v1.Bucket) error {
	// TODO(exercise 1): fill in SizeGB, Tier and the ManagedTag, leaving what the user set.
	return errNotImplemented(1)
}
