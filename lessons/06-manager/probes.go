package managers

import (
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Exercise 5a: options for a manager that serves health probes on addr ("127.0.0.1:8081").
//
// The kubelet asks /healthz (liveness: is the process stuck? then restart it) and /readyz
// (readiness: may it get traffic yet?). The manager serves both from one small HTTP server,
// which is off unless you give it an address.
func WithProbes(opts manager.Options, addr string) manager.Options {
	// TODO(exercise 5): set opts.HealthProbeBindAddress and return opts.
	panic(errNotImplemented(5))
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
	// TODO(exercise 5):
	//  1. mgr.AddHealthzCheck("ping", healthz.Ping) (sigs.k8s.io/controller-runtime/pkg/healthz).
	//  2. mgr.AddReadyzCheck("cache-synced", check), where check is a healthz.Checker, a
	//     func(*http.Request) error, that gives mgr.GetCache().WaitForCacheSync a context with
	//     a short timeout (context.WithTimeout of the request's context) and returns an error
	//     when it says false.
	return errNotImplemented(5)
}
