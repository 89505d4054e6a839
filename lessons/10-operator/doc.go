// Package operator is lesson 10: an operator of your own. StaticSite
// (lesson10.workshop.local/v1alpha1) is a custom resource declared in Go, in its own package
// (api/v1alpha1/staticsite_types.go); controller-gen turns its markers into the CRD manifest and
// the deepcopy functions (`make generate`), and a controller turns each StaticSite into a
// ConfigMap (its page), a Deployment (its web servers) and, unless its exposure is None, a
// Service, reports conditions in its status, registers it in a shared site directory that a
// finalizer cleans up, and records events.
//
// You edit api/v1alpha1/staticsite_types.go (then run `make generate`), children.go, status.go,
// finalizer.go, events.go and my_specs_test.go. The rest needs no edits: this file, crd.go,
// site.go, reconciler.go, the rest of api/v1alpha1, cmd/, tools/, and what `make generate` writes
// (api/v1alpha1/zz_generated.deepcopy.go, config/).
package operator

import "fmt"

// errNotImplemented is what every unfinished exercise returns, so the specs can say which
// exercise is still to do.
func errNotImplemented(exercise int) error {
	return fmt.Errorf("exercise %d is not implemented yet: see TODO(exercise %d)", exercise, exercise)
}
