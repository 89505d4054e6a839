package managers_test

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	managers "workshop.local/lessons/06-manager"
	"workshop.local/lessons/internal/harness"
)

// probeTimeout is how long the spec waits for a probe's answer: the kubelet's default.
const probeTimeout = time.Second

var _ = Describe("Exercise 5: health and readiness probes", harness.Exercise(5), func() {
	It("WithProbes serves the probes where the container's spec asks for them", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson06")
		port := freePort()
		// The liveness probe names the port, the readiness probe gives its number: one port.
		container := probedContainer(port,
			httpProbe("/live", intstr.FromString("probes")),
			httpProbe("/ready", intstr.FromInt32(port)))

		opts, err := managers.WithProbes(harness.ManagerOptions(ns), container)
		Expect(err).NotTo(HaveOccurred(),
			"the liveness probe asks for the port named \"probes\", the readiness probe for %d, and the container declares \"probes\" as %d: that is one port; look names up in the container's ports, then compare numbers", port, port)
		host, _, err := net.SplitHostPort(opts.HealthProbeBindAddress)
		Expect(err).NotTo(HaveOccurred(), "HealthProbeBindAddress should be host:port, got %q", opts.HealthProbeBindAddress)
		Expect(host).To(BeElementOf("", "0.0.0.0", "::"),
			"HealthProbeBindAddress %q listens on %s only, but the kubelet probes the Pod's IP: leave the host out (\":%d\") to listen on every interface", opts.HealthProbeBindAddress, host, port)

		// The spec's own checks, so that this spec checks WithProbes alone: alive, never ready.
		mgr, err := manager.New(cluster.Config, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(mgr.AddHealthzCheck("ping", healthz.Ping)).To(Succeed())
		Expect(mgr.AddReadyzCheck("never", func(*http.Request) error { return errors.New("the spec's check: never ready") })).To(Succeed())
		harness.StartManager(ctx, mgr)

		probe := probeAt(fmt.Sprintf("127.0.0.1:%d", port))
		Eventually(probe).WithArguments("/live").WithContext(ctx).WithTimeout(5*time.Second).Should(Equal(http.StatusOK),
			"GET http://127.0.0.1:%d/live should reach the liveness checks (the spec's always pass), as the container's liveness probe asks: serve the probes on its port, with its paths (the manager's defaults are /healthz and /readyz)", port)
		Expect(probe("/ready")).To(Equal(http.StatusInternalServerError),
			"GET http://127.0.0.1:%d/ready should reach the readiness checks (the spec's never pass: 500), as the container's readiness probe asks: a 404 is a path the manager does not serve, a 200 the liveness checks behind the readiness path", port)
	}, SpecTimeout(harness.Timeout))

	DescribeTable("WithProbes refuses a container whose probes one probe server cannot serve",
		func(liveness, readiness *corev1.Probe, why string) {
			_, err := managers.WithProbes(harness.ManagerOptions("default"), probedContainer(8081, liveness, readiness))
			Expect(err).To(HaveOccurred(), "WithProbes should return an error: %s", why)
			Expect(err.Error()).NotTo(ContainSubstring("not implemented yet"), "WithProbes is not implemented yet")
		},
		Entry("two ports", httpProbe("/live", intstr.FromInt32(8081)), httpProbe("/ready", intstr.FromInt32(8082)),
			"the probes ask for two ports, 8081 and 8082, and the manager serves both from one"),
		Entry("a port name the container does not declare", httpProbe("/live", intstr.FromString("health")), httpProbe("/ready", intstr.FromString("health")),
			"the probes ask for the port named \"health\", which the container does not declare (its port is \"probes\"): the kubelet could not probe it either"),
		Entry("a probe that is not an HTTP GET", httpProbe("/live", intstr.FromInt32(8081)), &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(8081)}}},
			"the readiness probe only opens a TCP connection, which says nothing about the manager's readiness check"),
	)

	It("AddProbes: alive at once, and ready only once the cache has synced", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson06")
		addr := fmt.Sprintf("127.0.0.1:%d", freePort())
		gate := newGate()
		gate.Close() // the cache's first list of ConfigMaps waits until the spec opens the gate

		opts := harness.ManagerOptions(ns)
		opts.HealthProbeBindAddress = addr // set here, so that this spec checks AddProbes alone
		mgr, err := manager.New(gate.Guarding(cluster.Config, "configmaps"), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(managers.AddProbes(mgr)).To(Succeed())
		// A ConfigMap informer the cache starts with, so it has something to sync.
		_, err = mgr.GetCache().GetInformer(ctx, &corev1.ConfigMap{}, cache.BlockUntilSynced(false))
		Expect(err).NotTo(HaveOccurred())
		harness.StartManagerUnsynced(ctx, mgr)

		probe := probeAt(addr)
		Eventually(probe).WithArguments("/healthz").WithContext(ctx).WithTimeout(5*time.Second).Should(Equal(http.StatusOK),
			"GET http://%s/healthz should answer 200 as soon as the manager runs: a liveness check that does not wait for the cache", addr)
		Consistently(probe).WithArguments("/readyz").WithContext(ctx).WithTimeout(consistentlyBriefly).Should(Equal(http.StatusInternalServerError),
			"GET /readyz should answer 500 (not ready), quickly, while the cache has not synced (the spec holds its first list back): a readiness check that looks whether the cache has synced, with a short timeout")

		gate.Open()
		Eventually(probe).WithArguments("/readyz").WithContext(ctx).Should(Equal(http.StatusOK),
			"GET /readyz should answer 200 once the cache has synced")
		Expect(probe("/healthz")).To(Equal(http.StatusOK), "and /healthz should still answer 200")
	}, SpecTimeout(harness.Timeout))
})

// probedContainer is a container that declares port as "probes", with the two probes given.
func probedContainer(port int32, liveness, readiness *corev1.Probe) corev1.Container {
	return corev1.Container{
		Name:           "manager",
		Image:          "registry.k8s.io/pause:3.10",
		Ports:          []corev1.ContainerPort{{Name: "probes", ContainerPort: port}},
		LivenessProbe:  liveness,
		ReadinessProbe: readiness,
	}
}

// httpProbe is an HTTP GET probe of path on port.
func httpProbe(path string, port intstr.IntOrString) *corev1.Probe {
	return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: port}}}
}

// freePort returns a TCP port nobody listens on right now, on any interface. controller-runtime
// does not tell which port it bound, so the spec picks one for it.
func freePort() int32 {
	GinkgoHelper()
	l, err := net.Listen("tcp", ":0")
	Expect(err).NotTo(HaveOccurred())
	_, port, err := net.SplitHostPort(l.Addr().String())
	Expect(err).NotTo(HaveOccurred())
	Expect(l.Close()).To(Succeed())
	n, err := strconv.ParseInt(port, 10, 32)
	Expect(err).NotTo(HaveOccurred())
	return int32(n)
}

// probeAt returns a function that GETs a path of the probe server at addr, as the kubelet
// would, and returns the status code; an error if there is no answer within probeTimeout.
func probeAt(addr string) func(path string) (int, error) {
	httpClient := &http.Client{Timeout: probeTimeout}
	return func(path string) (int, error) {
		resp, err := httpClient.Get(fmt.Sprintf("http://%s%s", addr, path))
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		return resp.StatusCode, nil
	}
}
