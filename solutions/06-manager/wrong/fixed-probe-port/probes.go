// Wrong (exercise 5): WithProbes binds the usual :8081 instead of the address it was given.
// The kubelet (and here, the spec) probes the port the Pod spec names; a process that listens
// elsewhere is never found healthy and is restarted again and again. On a shared machine a
// fixed port also collides with the next process that picks it.

package managers

import (
	"context"
	"errors"
	"net/http"
	"time"

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
	opts.HealthProbeBindAddress = ":8081"
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

// syncCheckTimeout bounds how long the readiness check looks at the cache.
const syncCheckTimeout = 100 * time.Millisecond

// cacheSynced is a readiness check that passes once every informer of c has synced.
func cacheSynced(c cache.Cache) healthz.Checker {
	return func(req *http.Request) error {
		ctx, cancel := context.WithTimeout(req.Context(), syncCheckTimeout)
		defer cancel()
		if !c.WaitForCacheSync(ctx) {
			return errors.New("the cache has not synced yet")
		}
		return nil
	}
}
