package v1

// Hub marks v1 as the hub of Bucket's conversions (sigs.k8s.io/controller-runtime/pkg/conversion):
// every other version converts to and from v1, never to each other, so n versions need n-1
// pairs of functions instead of one pair for each of the n×(n-1)/2 pairs of versions. The hub is
// usually the storage version, as here: the CRD (installCRD in the specs' setup_test.go) stores
// v1. Each spoke implements conversion.Convertible (ConvertTo and ConvertFrom a Hub): see
// api/v1beta1/conversion.go.
func (*Bucket) Hub() {}
