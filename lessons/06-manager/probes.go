package managers

import (
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Exercise 5a: options for a manager that serves the health probes its container asks for.
//
// The kubelet probes what the Pod's manifest says: each probe's httpGet names a path and a
// port, the port by number or by the name of one of the container's ports. It connects to the
// Pod's IP (unless the probe names a host), not to 127.0.0.1. The manager must listen there,
// on those paths, or the kubelet finds the container dead (and restarts it) or never ready.
//
// The manager serves both probes from one small HTTP server, which is off unless you give it
// an address, so both probes must reach the same port. Return an error for probes this
// manager cannot serve: a probe that is not an HTTP GET, a port name the container does not
// declare, or two different ports.
func WithProbes(opts manager.Options, container corev1.Container) (manager.Options, error) {
	// TODO(exercise 5): find the port each probe asks for (a number, or a name to look up the
	// way the kubelet does), refuse what one probe server cannot serve, then give the manager
	// the address to listen on and the two paths.
	return opts, errNotImplemented(5)
}

// Exercise 5b: the checks behind the probes.
//
//   - Liveness: the process answers. healthz.Ping is the usual check: a process stuck so badly
//     that its HTTP server cannot answer gets restarted.
//   - Readiness: the manager's cache has synced. Until then this process cannot do its job
//     yet: a cached read of a kind whose informer has not synced waits for it, or fails before
//     the cache has started. Not ready marks the Pod's endpoints not ready, so its Services
//     send it no traffic (a webhook gets no calls yet), and a rolling update does not count it
//     as available yet.
//
// A probe must answer quickly (the kubelet gives up after timeoutSeconds, 1 s by default):
// a readiness check may look whether the cache has synced, but must not sit and wait for it.
func AddProbes(mgr manager.Manager) error {
	// TODO(exercise 5): register a liveness check that only says "this process answers", and
	// a readiness check that looks, briefly, whether the manager's cache has synced and fails
	// while it has not.
	return errNotImplemented(5)
}
