package pages_test

import (
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/rest"

	pages "workshop.local/lessons/14-code-generator"
	"workshop.local/lessons/14-code-generator/pkg/generated/clientset/versioned"

	"workshop.local/lessons/internal/harness"
)

// cluster is the workshop cluster the specs check your code against.
var cluster *harness.Cluster

func TestLesson14(t *testing.T) {
	harness.RunSuite(t, "Lesson 14: typed clients with code-generator")
}

// The first function runs once, in the first parallel process: it installs the Page CRD
// (crd.go). The second runs in every process.
var _ = SynchronizedBeforeSuite(func(ctx SpecContext) {
	harness.Connect(ctx).EnsureCRD(ctx, pages.CRD())
}, func(ctx SpecContext) {
	// Event handlers run in informer goroutines: a panic there is logged, not fatal.
	utilruntime.ReallyCrash = false
	cluster = harness.Connect(ctx)
}, NodeTimeout(2*time.Minute))

// pageClient is the generated clientset on cfg.
func pageClient(cfg *rest.Config) versioned.Interface {
	c, err := versioned.NewForConfig(cfg)
	Expect(err).NotTo(HaveOccurred())
	return c
}
