package queues_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"

	"workshop.local/lessons/internal/harness"
)

// cluster is the workshop cluster the specs of exercise 4 check your controller against.
// The specs of exercises 1 to 3 do not use it: they run in memory, on a fake clock where
// timing matters.
var cluster *harness.Cluster

func TestLesson04(t *testing.T) {
	harness.RunSuite(t, "Lesson 04: the workqueue and its rate limiters")
}

var _ = BeforeSuite(func(ctx SpecContext) {
	cluster = harness.Connect(ctx)
})
