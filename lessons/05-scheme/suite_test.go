package scheme_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"workshop.local/lessons/internal/harness"
)

// cluster is the workshop cluster the specs check your code against.
var cluster *harness.Cluster

func TestLesson05(t *testing.T) {
	harness.RunSuite(t, "Lesson 05: the Scheme")
}

var _ = BeforeSuite(func(ctx SpecContext) {
	// controller-runtime's client (exercise 2) logs through this; without it, it complains.
	ctrllog.SetLogger(GinkgoLogr)
	cluster = harness.Connect(ctx)
})
