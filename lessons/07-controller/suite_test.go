package mirror_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"workshop.local/lessons/internal/harness"
)

// cluster is the workshop cluster the specs check your controller against.
var cluster *harness.Cluster

func TestLesson07(t *testing.T) {
	harness.RunSuite(t, "Lesson 07: the Controller, built by hand")
}

var _ = BeforeSuite(func(ctx SpecContext) {
	// Predicates and map functions run in informer goroutines, where client-go recovers a
	// panic only to panic again (utilruntime.ReallyCrash), ending the whole test run. Here a
	// panic is logged and the event dropped instead, so a bug in one exercise fails its own
	// specs only. (A panic in Reconcile is recovered by controller-runtime itself: RecoverPanic
	// defaults to true.)
	utilruntime.ReallyCrash = false
	cluster = harness.Connect(ctx)
})
