package harness

import (
	"context"
	"fmt"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"workshop.local/lessons/internal/harness/races"
	"workshop.local/scripts/workspace"
)

// Limits that keep every spec bounded. Specs declare SpecTimeout(harness.Timeout); a learner's
// code that ignores the context is abandoned gracePeriod later, so a hang fails one spec, not
// the run.
const (
	Timeout      = 90 * time.Second
	gracePeriod  = 5 * time.Second
	suiteTimeout = 20 * time.Minute
)

// Cluster holds the clients a lesson's specs use to check the learner's work. They talk to the
// API server directly (no cache), so what a spec asserts is what the cluster holds right now.
type Cluster struct {
	Config    *rest.Config
	Clientset kubernetes.Interface
	Dynamic   dynamic.Interface
}

// RunSuite is the whole body of a lesson's TestXxx function: it wires Gomega to Ginkgo, sets
// the default Eventually and Consistently timings, and runs the lesson's specs.
func RunSuite(t *testing.T, lesson string) {
	RegisterFailHandler(Fail)
	// controller-runtime logs through its own global logger and complains when none is set;
	// send its lines to each spec's output, where a failing spec shows them.
	ctrllog.SetLogger(GinkgoLogr)
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(100 * time.Millisecond)
	SetDefaultConsistentlyDuration(2 * time.Second)
	SetDefaultConsistentlyPollingInterval(100 * time.Millisecond)
	// Without this, an Eventually given a context and no timeout polls until the spec's own
	// timeout: a starter that always fails would take 90 s per spec instead of 30.
	EnforceDefaultTimeoutsWhenUsingContexts()
	suiteConfig, reporterConfig := GinkgoConfiguration()
	if suiteConfig.GracePeriod == 30*time.Second { // Ginkgo's default: keep a flag's value
		suiteConfig.GracePeriod = gracePeriod
	}
	if suiteConfig.Timeout == time.Hour {
		suiteConfig.Timeout = suiteTimeout
	}
	races.FailSpecsThatRace(t)
	RunSpecs(t, lesson, suiteConfig, reporterConfig)
}

// Connect loads the workshop kubeconfig, refuses a foreign context, checks that the cluster
// answers, and returns the clients. Call it from the suite's BeforeSuite; on a problem it fails
// the suite with one sentence that says what to do.
func Connect(ctx context.Context) *Cluster {
	cfg, err := workspace.LoadConfig()
	if err != nil {
		Fail(err.Error())
	}
	if err := workspace.CheckReachable(ctx, cfg); err != nil {
		Fail(err.Error())
	}
	// The specs' own clients may burst (a failure dump lists every resource); the config handed
	// to learners' code keeps client-go's defaults.
	// Their deprecation warnings (a failure dump lists v1 Endpoints, say) are noise to a learner.
	fast := rest.CopyConfig(cfg)
	fast.QPS, fast.Burst = 100, 200
	fast.WarningHandler = rest.NoWarnings{}
	c := &Cluster{
		Config:    cfg,
		Clientset: kubernetes.NewForConfigOrDie(fast),
		Dynamic:   dynamic.NewForConfigOrDie(fast),
	}
	// What killed runs left, admission objects first: a webhook left behind can block the
	// namespace deletions after it.
	c.sweepAbandoned(ctx)
	c.sweepAbandonedNamespaces(ctx)
	return c
}

// Background is the context for the learner's code that keeps running in goroutines
// (reflectors, informers, workers): it is cancelled when the spec ends, before the spec's
// namespace is deleted, so nothing outlives the spec that started it.
func Background(ctx context.Context) context.Context {
	runCtx, cancel := context.WithCancel(ctx)
	DeferCleanup(cancel)
	return runCtx
}

// Exercise labels a container of specs with its exercise number, so `make check EXERCISE=N`
// runs it alone and the summary can say which exercise a failing spec belongs to.
func Exercise(n int) Labels {
	return Label(fmt.Sprintf("exercise-%d", n))
}
