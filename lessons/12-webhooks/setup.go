package webhooks

import (
	ctrl "sigs.k8s.io/controller-runtime"

	v1 "workshop.local/lessons/12-webhooks/api/v1"
)

// This file needs no edits: it wires your defaulter, validator and conversion into a manager.

// Values the rules of a Bucket use.
const (
	TierStandard   = "standard"
	TierArchive    = "archive"
	MaxSizeGB      = 1000
	PremiumSizeGB  = 500
	ProtectedLabel = "lesson12.workshop.local/protected"
)

// The paths the manager's webhook server serves the Bucket webhooks at. Without the custom paths
// the builder would name them after the group (dots turned into dashes), version and kind
// (/mutate-<group>-v1-bucket, pkg/builder/webhook.go's generateMutatePath); /convert is the
// conversion webhook's fixed path.
const (
	DefaultPath  = "/default-bucket"
	ValidatePath = "/validate-bucket"
	ConvertPath  = "/convert"
)

// SetupWebhooks registers the Bucket webhooks with the manager's webhook server: your defaulter
// at DefaultPath, your validator at ValidatePath and, because v1.Bucket is a Hub and every other
// version in the manager's scheme is Convertible (conversion.IsConvertible), the conversion
// webhook at /convert. The manager's scheme must hold both versions (v1.AddToScheme and
// v1beta1.AddToScheme). Nothing is served until the manager starts, and nothing calls it until
// a webhook configuration or a CRD's conversion tells the API server where it is.
func SetupWebhooks(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr, &v1.Bucket{}).
		WithDefaulter(&BucketDefaulter{}).
		WithDefaulterCustomPath(DefaultPath).
		WithValidator(&BucketValidator{}).
		WithValidatorCustomPath(ValidatePath).
		Complete()
}
