// Wrong (exercise 5): WithProbes reads a probe's port with IntValue(), which turns a port name into 0.
// A manifest may name the probe port ("port: healthz"): the name is not looked up among the
// container's ports, so the probe server gets port 0 (any free port), and the kubelet, which
// does look the name up, finds nothing there.

package managers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
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
	livenessPort, err := httpProbePort(container, "liveness", container.LivenessProbe)
	if err != nil {
		return opts, err
	}
	readinessPort, err := httpProbePort(container, "readiness", container.ReadinessProbe)
	if err != nil {
		return opts, err
	}
	// Compare the resolved numbers: "probes" and 8081 may well be the same port.
	if livenessPort != readinessPort {
		return opts, fmt.Errorf("the liveness probe asks port %d and the readiness probe port %d, but the manager serves both from one port", livenessPort, readinessPort)
	}
	// No host: every interface of the Pod, so that the kubelet reaches it on the Pod's IP.
	opts.HealthProbeBindAddress = fmt.Sprintf(":%d", livenessPort)
	opts.LivenessEndpointName = container.LivenessProbe.HTTPGet.Path
	opts.ReadinessEndpointName = container.ReadinessProbe.HTTPGet.Path
	return opts, nil
}

// httpProbePort returns the port number an HTTP GET probe of container asks for, looking a
// port name up among the container's ports as the kubelet does.
func httpProbePort(container corev1.Container, which string, probe *corev1.Probe) (int32, error) {
	if probe == nil || probe.HTTPGet == nil {
		return 0, fmt.Errorf("the %s probe of container %q is not an HTTP GET: the manager serves only those", which, container.Name)
	}
	return int32(probe.HTTPGet.Port.IntValue()), nil
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
