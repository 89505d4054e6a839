package sites_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"workshop.local/lessons/internal/harness"
)

// cluster is the workshop cluster the specs check your controllers against.
var cluster *harness.Cluster

func TestLesson09(t *testing.T) {
	harness.RunSuite(t, "Lesson 09: the Builder")
}

var _ = BeforeSuite(func(ctx SpecContext) {
	// Predicates and map functions run in informer goroutines, where client-go recovers a
	// panic only to panic again (utilruntime.ReallyCrash), ending the whole test run. Here a
	// panic is logged and the event dropped instead, so a bug in one exercise fails its own
	// specs only.
	utilruntime.ReallyCrash = false
	cluster = harness.Connect(ctx)
	cluster.EnsureCRD(ctx, websiteCRD)
})
