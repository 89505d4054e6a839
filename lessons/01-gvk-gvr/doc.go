// Package gvkgvr is lesson 01: how Kubernetes names types (Group, Version, Kind) and the URLs
// that serve them (Group, Version, Resource), and how a RESTMapper links the two.
//
// You edit parse.go, path.go, mapper.go and served.go. This file needs no edits.
package gvkgvr

import "fmt"

// errNotImplemented is what every unfinished exercise returns (or panics with), so the specs
// can say which exercise is still to do.
func errNotImplemented(exercise int) error {
	return fmt.Errorf("exercise %d is not implemented yet: see TODO(exercise %d)", exercise, exercise)
}
