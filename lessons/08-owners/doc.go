// Package owners is lesson 08: owner references, owner watches and the garbage collector. A
// small custom resource, Website (lesson08.workshop.local/v1), owns two children in its
// namespace: a ConfigMap <site>-page holding its HTML, and a Deployment <site> that serves it.
//
// You edit owner.go, children.go, controller.go, deletion.go and invalid.go. This file,
// website_types.go, zz_generated.deepcopy.go and website.go need no edits.
package owners

import "fmt"

// errNotImplemented is what every unfinished exercise returns, so the specs can say which
// exercise is still to do.
func errNotImplemented(exercise int) error {
	return fmt.Errorf("exercise %d is not implemented yet: see TODO(exercise %d)", exercise, exercise)
}
