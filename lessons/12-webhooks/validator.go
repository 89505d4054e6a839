package webhooks

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	v1 "workshop.local/lessons/12-webhooks/api/v1"
)

// Exercise 2: validation, by a validating webhook the API server calls after the mutating ones.
//
// controller-runtime calls ValidateCreate, ValidateUpdate (with the stored object and the new
// one) or ValidateDelete (with the object being deleted), and turns what they return into the
// AdmissionReview's answer: warnings go back to the client (kubectl prints them, client-go hands
// them to the rest.Config's WarningHandler), and an error denies the request. An error that is
// an API status (apierrors.NewInvalid of a field.ErrorList, apierrors.NewForbidden) keeps its
// code, reason and causes, as the API server's own validation would answer (the API server only
// prefixes its message with the webhook's name); any other error becomes a 403 with its text.
//
// The rules of a Bucket:
//   - create and update: spec.region is required; spec.sizeGB is 1 to MaxSizeGB; spec.tier is
//     TierStandard or TierArchive. Report every broken rule at once (a field.ErrorList), each
//     at its field's path (spec.sizeGB, not sizeGB).
//   - a size above PremiumSizeGB is allowed, with a warning that says "premium".
//   - update: spec.region is immutable; spec.tier may go from standard to archive, never back.
//   - delete: a bucket labelled ProtectedLabel=true cannot be deleted (Forbidden); deleting an
//     archived bucket is allowed, with a warning that says "archive".

// BucketValidator checks Buckets on create, update and delete.
type BucketValidator struct{}

// Compile-time check: BucketValidator is what WebhookBuilder.WithValidator takes.
var _ admission.Validator[*v1.Bucket] = &BucketValidator{}

// ValidateCreate checks a new bucket.
func (v *BucketValidator) ValidateCreate(ctx context.Context, bucket *v1.Bucket) (admission.Warnings, error) {
	// TODO(exercise 2): check the fields; warn about a premium size.
	return nil, errNotImplemented(2)
}

// ValidateUpdate checks a change from old to bucket.
func (v *BucketValidator) ValidateUpdate(ctx context.Context, old, bucket *v1.Bucket) (admission.Warnings, error) {
	// TODO(exercise 2): the checks of a create, plus the immutable region and the tier's
	// one-way transition.
	return nil, errNotImplemented(2)
}

// ValidateDelete checks a bucket about to be deleted.
func (v *BucketValidator) ValidateDelete(ctx context.Context, bucket *v1.Bucket) (admission.Warnings, error) {
	// TODO(exercise 2): refuse a protected bucket; warn when an archive goes.
	return nil, errNotImplemented(2)
}
