// Wrong (exercise 5): the readiness check waits for the cache with the request's own context, with no timeout of its own.
// Until the cache has synced the probe does not answer at all; the kubelet's probe times out
// (timeoutSeconds, 1 s by default) and each hanging check holds a goroutine and a connection.
// A probe should answer at once, "not yet" included.

package managers

import (
	"errors"
	"net/http"

	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Exercise 5a: options for a manager that serves health probes on addr ("127.0.0.1:8081").
//
// The kubelet asks /healthz (liveness: is the process stuck? then restart it) and /readyz
// (readiness: may it get traffic yet?). The manager serves both from one small HTTP server,
// which is off unless you give it an address.
func WithProbes(opts manager.Options, addr string) manager.Options {
	opts.HealthProbeBindAddress = addr
	return opts
}

// Exercise 5b: the checks behind the probes.
//
//   - Liveness: the process answers. healthz.Ping is the usual check: a process stuck so badly
//     that its HTTP server cannot answer gets restarted.
//   - Readiness: the manager's cache has synced. Until then every read would come from a half
//     filled cache, and a webhook or API this process serves would answer from it.
//
// A probe must answer quickly (the kubelet gives up after timeoutSeconds, 1 s by default):
// a readiness check may look whether the cache has synced, but must not sit and wait for it.
func AddProbes(mgr manager.Manager) error {
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return err
	}
	return mgr.AddReadyzCheck("cache-synced", cacheSynced(mgr.GetCache()))
}

// cacheSynced is a readiness check that passes once every informer of c has synced.
func cacheSynced(c cache.Cache) healthz.Checker {
	return func(req *http.Request) error {
		if !c.WaitForCacheSync(req.Context()) {
			return errors.New("the cache has not synced yet")
		}
		return nil
	}
}
