package owners_test

import (
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"workshop.local/lessons/internal/harness"
)

var (
	// cluster is the workshop cluster the specs check your code against.
	cluster *harness.Cluster
	// k8s is the specs' own client: no cache, and its scheme knows Websites.
	k8s client.Client
)

func TestLesson08(t *testing.T) {
	harness.RunSuite(t, "Lesson 08: owners, owner watches and the garbage collector")
}

// The first function runs once, in the first parallel process: it installs the Website CRD and
// waits until the garbage collector handles Websites (it learns new kinds from discovery every
// 30 s, so right after the CRD is first installed it may need that long). The second runs in
// every process.
var _ = SynchronizedBeforeSuite(func(ctx SpecContext) {
	c := harness.Connect(ctx)
	c.EnsureCRD(ctx, websiteCRD())
	waitForGarbageCollector(ctx, c)
}, func(ctx SpecContext) {
	// Event handlers run in informer goroutines, where client-go recovers a panic only to panic
	// again, ending the whole test run. Here a panic is logged and the event dropped instead,
	// so a bug in one exercise fails its own specs only.
	utilruntime.ReallyCrash = false
	cluster = harness.Connect(ctx)
	k8s = specClient(cluster.Config)
}, NodeTimeout(2*time.Minute))
