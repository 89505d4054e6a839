package operator_test

import (
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	operator "workshop.local/lessons/10-operator"

	"workshop.local/lessons/internal/harness"
)

var (
	// cluster is the workshop cluster the specs check your operator against.
	cluster *harness.Cluster
	// k8s is the specs' own client: no cache, and its scheme knows StaticSites.
	k8s client.Client
)

func TestLesson10(t *testing.T) {
	harness.RunSuite(t, "Lesson 10: an operator of your own")
}

// The first function runs once, in the first parallel process: it installs (or updates) the
// StaticSite CRD that `make generate` wrote from your markers. The second runs in every process.
var _ = SynchronizedBeforeSuite(func(ctx SpecContext) {
	applyCRD(ctx, harness.Connect(ctx))
}, func(ctx SpecContext) {
	// Event handlers run in informer goroutines, where client-go recovers a panic only to panic
	// again, ending the whole test run. Here a panic is logged and the event dropped instead,
	// so a bug in one exercise fails its own specs only.
	utilruntime.ReallyCrash = false
	cluster = harness.Connect(ctx)
	k8s = directClient(cluster.Config)
	crd, err := operator.CRD()
	Expect(err).NotTo(HaveOccurred())
	ownFingerprint = addFingerprint(crd) // as applyCRD installed it, in the first process
}, NodeTimeout(2*time.Minute))
