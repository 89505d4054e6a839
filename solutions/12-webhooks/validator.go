package webhooks

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
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
	return warnings(bucket), invalid(bucket, validateSpec(bucket))
}

// ValidateUpdate checks a change from old to bucket.
func (v *BucketValidator) ValidateUpdate(ctx context.Context, old, bucket *v1.Bucket) (admission.Warnings, error) {
	errs := validateSpec(bucket)
	spec := field.NewPath("spec")
	if bucket.Spec.Region != old.Spec.Region {
		// The API server's own wording for immutable fields (apimachinery's
		// apivalidation.FieldImmutableErrorMsg).
		errs = append(errs, field.Invalid(spec.Child("region"), bucket.Spec.Region, "field is immutable"))
	}
	if old.Spec.Tier == TierArchive && bucket.Spec.Tier != TierArchive {
		errs = append(errs, field.Forbidden(spec.Child("tier"), "an archived bucket cannot leave the archive tier"))
	}
	return warnings(bucket), invalid(bucket, errs)
}

// ValidateDelete checks a bucket about to be deleted.
func (v *BucketValidator) ValidateDelete(ctx context.Context, bucket *v1.Bucket) (admission.Warnings, error) {
	if bucket.Labels[ProtectedLabel] == "true" {
		gr := schema.GroupResource{Group: bucket.GroupVersionKind().Group, Resource: "buckets"}
		return nil, apierrors.NewForbidden(gr, bucket.Name, fmt.Errorf("it is labelled %s=true: remove the label first", ProtectedLabel))
	}
	if bucket.Spec.Tier == TierArchive {
		return admission.Warnings{"deleting an archive tier bucket deletes its archive too"}, nil
	}
	return nil, nil
}

// validateSpec checks the rules that hold for every bucket, new or changed.
func validateSpec(bucket *v1.Bucket) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	if bucket.Spec.Region == "" {
		errs = append(errs, field.Required(spec.Child("region"), "every bucket lives in a region"))
	}
	if bucket.Spec.SizeGB < 1 || bucket.Spec.SizeGB > MaxSizeGB {
		errs = append(errs, field.Invalid(spec.Child("sizeGB"), bucket.Spec.SizeGB, fmt.Sprintf("must be 1 to %d", MaxSizeGB)))
	}
	if bucket.Spec.Tier != TierStandard && bucket.Spec.Tier != TierArchive {
		errs = append(errs, field.NotSupported(spec.Child("tier"), bucket.Spec.Tier, []string{TierStandard, TierArchive}))
	}
	return errs
}

// warnings are what the client is told about a bucket that is valid but maybe not meant.
func warnings(bucket *v1.Bucket) admission.Warnings {
	if bucket.Spec.SizeGB > PremiumSizeGB {
		return admission.Warnings{fmt.Sprintf("spec.sizeGB: %d GB is above %d GB and billed at the premium rate", bucket.Spec.SizeGB, PremiumSizeGB)}
	}
	return nil
}

// invalid is nil for no errors, else the 422 Invalid status the API server itself would send:
// one cause per error, each naming its field.
func invalid(bucket *v1.Bucket, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(bucket.GroupVersionKind().GroupKind(), bucket.Name, errs)
}
