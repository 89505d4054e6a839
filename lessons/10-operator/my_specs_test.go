package operator_test

import (
	. "github.com/onsi/ginkgo/v2"

	"workshop.local/lessons/internal/harness"
)

// Exercise 6: your own specs.
//
// Write the specs you would want before trusting this operator in a cluster: each one a promise
// to the operator's users, checked from the outside (what the API server says), not a copy of
// its code. `make check LESSON=10 EXERCISE=6` runs them against the reference operator (every
// spec must pass: a spec that fails there expects something wrong) and against broken operators
// shipped with the lesson, each of which gets one kind of behaviour wrong (every one must make
// at least one of your specs fail). It tells you which it did not catch, and what they get
// wrong, never how to check it.
//
// The suite's helpers are yours to use (operator_helpers_test.go, helpers_test.go and the spec
// files of exercises 1-5 show them at work): startOperator(ctx) runs the operator in a manager
// of its own with a namespace for its sites (op.ns) and a directory (op.directory,
// op.entries); newSite, create, change, get, gone; page, deployment and service (a site's
// children's keys); status(g, ctx, site) and eventsFor(g, ctx, site); waitReady; k8s, the specs'
// own client; settle, how long to wait for the operator. Keep every spec in the Describe below
// (its exercise-6 label is how the check finds them), with SpecTimeout(harness.Timeout) and
// Eventually(...).WithContext(ctx).

var _ = Describe("Exercise 6: your own specs", harness.Exercise(6), func() {
	// TODO(exercise 6): replace this placeholder with your specs, then run make check LESSON=10 EXERCISE=6.
	It("is yours to write", func() {
		Fail("write your specs in lessons/10-operator/my_specs_test.go, then run make check LESSON=10 EXERCISE=6")
	})
})
