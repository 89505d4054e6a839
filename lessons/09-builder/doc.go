// Package sites is lesson 09: the controller-runtime Builder. It wires a controller for a small
// custom resource, Website (lesson09.workshop.local/v1), that owns a ConfigMap (its page) and a
// Deployment (its web servers), first by hand (handbuilt.go, given) and then with
// ctrl.NewControllerManagedBy: For, Owns, Watches, WithOptions, Named, predicates and
// metadata-only watches.
//
// You edit builder.go, metadata.go, names.go and predicates.go. This file, website_types.go,
// zz_generated.deepcopy.go, register.go, website.go and handbuilt.go need no edits.
package sites

import "fmt"

// errNotImplemented is what every unfinished exercise returns, so the specs can say which
// exercise is still to do.
func errNotImplemented(exercise int) error {
	return fmt.Errorf("exercise %d is not implemented yet: see TODO(exercise %d)", exercise, exercise)
}
