package observe_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"

	"workshop.local/lessons/internal/harness"
)

// cluster is the workshop cluster the specs check your controller against.
var cluster *harness.Cluster

func TestLesson13(t *testing.T) {
	harness.RunSuite(t, "Lesson 13: logs, metrics and concurrency")
}

var _ = BeforeSuite(func(ctx SpecContext) {
	cluster = harness.Connect(ctx)
})
