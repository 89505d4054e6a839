// Package pages is lesson 14: typed clients for your own types with k8s.io/code-generator, the
// client-go way. You tag the Page API (pkg/apis/lesson14/v1alpha1) so the generators write a
// clientset, listers, informers and apply configurations for it, then build a controller in
// kubernetes/sample-controller's shape on that generated code, and write Pages with server-side
// apply.
//
// You edit pkg/apis/lesson14/v1alpha1/doc.go, types.go and register.go, controller.go and
// apply.go. This file, crd.go and everything under pkg/generated (generated: make generate
// regenerates it from the solution's types) need no edits.
package pages

import "fmt"

// errNotImplemented is what every unfinished exercise returns, so the specs can say which
// exercise is still to do.
func errNotImplemented(exercise int) error {
	return fmt.Errorf("exercise %d is not implemented yet: see TODO(exercise %d)", exercise, exercise)
}
