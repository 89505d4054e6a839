package harness

import (
	"context"
	"errors"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// managerShutdown bounds how long a stopping manager waits for its runnables. A runnable that
// ignores its context makes Start return an error after this long, which fails the spec.
const managerShutdown = 5 * time.Second

// ManagerOptions returns controller-runtime manager options that are safe inside a spec:
//   - Scheme: a fresh scheme with client-go's built-in types, never the global scheme.Scheme
//     (add the lesson's own types to it);
//   - no metrics server and no health probe server ("0"), so parallel specs and other
//     learners' processes never fight over a port;
//   - no leader election;
//   - a cache that lists and watches only the spec's namespace;
//   - Controller.SkipNameValidation: controller-runtime refuses a second controller with the
//     same name in one process (pkg/controller/name.go), and one spec process starts many;
//   - a graceful shutdown of a few seconds, so a manager that cannot stop fails its spec.
func ManagerOptions(namespace string) manager.Options {
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	skipNameValidation := true
	shutdown := managerShutdown
	return manager.Options{
		Scheme:                  scheme,
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:  "0",
		LeaderElection:          false,
		Cache:                   cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
		Controller:              config.Controller{SkipNameValidation: &skipNameValidation},
		GracefulShutdownTimeout: &shutdown,
	}
}

// StartManager runs mgr.Start in the background and returns once the manager's cache has
// synced (it fails the spec if Start returns first). The manager is stopped when the spec
// ends, and the cleanup waits until Start has returned: cleanups run last-in first-out, so the
// manager is gone before the spec's namespace (created earlier) is deleted. An error from
// Start other than a clean stop fails the spec.
//
// The returned function stops the manager early (a spec that stops a leader, say) and
// returns Start's error once Start has returned; calling it more than once is fine.
func StartManager(ctx context.Context, mgr manager.Manager) (stop func() error) {
	GinkgoHelper()
	stop, done := startManager(ctx, mgr)
	synced := make(chan bool, 1)
	go func() {
		syncCtx, stopWaiting := context.WithCancel(ctx)
		defer stopWaiting()
		go func() {
			select {
			case <-done: // Start returned: its caches will never sync
				stopWaiting()
			case <-syncCtx.Done():
			}
		}()
		synced <- mgr.GetCache().WaitForCacheSync(syncCtx)
	}()
	if !<-synced {
		select {
		case <-done:
			Fail("the manager stopped before its cache synced: " + errString(stop()))
		default:
			Fail("the manager's cache did not sync before the spec's context ended")
		}
	}
	return stop
}

// StartManagerUnsynced is StartManager without the wait for the cache: for specs that look at
// a manager while its cache is still filling (its readiness probe, say).
func StartManagerUnsynced(ctx context.Context, mgr manager.Manager) (stop func() error) {
	GinkgoHelper()
	stop, _ = startManager(ctx, mgr)
	return stop
}

// startManager runs mgr.Start in a goroutine and registers the cleanup that stops it. done is
// closed when Start has returned.
func startManager(ctx context.Context, mgr manager.Manager) (stop func() error, done <-chan struct{}) {
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	returned := make(chan struct{})
	startedManagers.Store(mgr, (<-chan struct{})(returned))
	var startErr error
	go func() {
		defer GinkgoRecover()
		defer close(returned)
		startErr = mgr.Start(runCtx)
	}()
	stop = func() error {
		cancel()
		select {
		case <-returned:
			return startErr
		case <-time.After(managerShutdown + gracePeriod):
			return errors.New("the manager did not stop: Start has not returned after its context was cancelled")
		}
	}
	DeferCleanup(func() {
		Expect(stop()).To(Succeed(), "the manager's Start returned an error")
	})
	return stop, returned
}

// startedManagers maps each manager StartManager started to the channel closed when its Start
// returns, for Running.
var startedManagers sync.Map

// Running says whether a manager started with StartManager (or StartManagerUnsynced) is still
// running: its Start has not returned. A manager whose servers fail to start (a port another
// manager holds) stops by itself, possibly only after its cache has synced: specs that check
// for that watch Running for a moment (Consistently) rather than judge at once.
func Running(mgr manager.Manager) bool {
	done, ok := startedManagers.Load(mgr)
	if !ok {
		return false
	}
	select {
	case <-done.(<-chan struct{}):
		return false
	default:
		return true
	}
}

func errString(err error) string {
	if err == nil {
		return "Start returned no error"
	}
	return err.Error()
}
