package managers_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"

	"workshop.local/lessons/internal/harness"
)

// cluster is the workshop cluster the specs check your code against.
var cluster *harness.Cluster

func TestLesson06(t *testing.T) {
	harness.RunSuite(t, "Lesson 06: the Manager")
}

var _ = BeforeSuite(func(ctx SpecContext) {
	cluster = harness.Connect(ctx)
})
