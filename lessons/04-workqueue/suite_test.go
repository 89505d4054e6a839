package queues_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"

	"workshop.local/lessons/internal/harness"
)

// cluster is the workshop cluster the specs of exercise 4 check your controller against.
// Exercises 1 to 3 need no cluster: they use a fake clock instead.
var cluster *harness.Cluster

func TestLesson04(t *testing.T) {
	harness.RunSuite(t, "Lesson 04: the workqueue and its rate limiters")
}

var _ = BeforeSuite(func(ctx SpecContext) {
	cluster = harness.Connect(ctx)
})
