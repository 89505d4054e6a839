package managers_test

import (
	"fmt"
	"net"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	managers "workshop.local/lessons/06-manager"
	"workshop.local/lessons/internal/harness"
)

// probeTimeout is how long the spec waits for a probe's answer: the kubelet's default.
const probeTimeout = time.Second

var _ = Describe("Exercise 5: health and readiness probes", harness.Exercise(5), func() {
	It("is alive at once, and ready only once its cache has synced", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson06")
		addr := freeLoopbackAddr()
		gate := newGate()
		gate.Close() // the cache's first list of ConfigMaps waits until the spec opens the gate

		mgr, err := manager.New(gate.Guarding(cluster.Config, "configmaps"), managers.WithProbes(harness.ManagerOptions(ns), addr))
		Expect(err).NotTo(HaveOccurred())
		Expect(managers.AddProbes(mgr)).To(Succeed())
		// A ConfigMap informer the cache starts with, so it has something to sync.
		_, err = mgr.GetCache().GetInformer(ctx, &corev1.ConfigMap{}, cache.BlockUntilSynced(false))
		Expect(err).NotTo(HaveOccurred())
		harness.StartManagerUnsynced(ctx, mgr)

		probe := probeAt(addr)
		Eventually(probe).WithArguments("/healthz").WithContext(ctx).WithTimeout(5*time.Second).Should(Equal(http.StatusOK),
			"GET http://%s/healthz should answer 200 as soon as the manager runs: serve probes on the address given (HealthProbeBindAddress), with a liveness check that does not wait for the cache", addr)
		Consistently(probe).WithArguments("/readyz").WithContext(ctx).WithTimeout(consistentlyBriefly).Should(Equal(http.StatusInternalServerError),
			"GET /readyz should answer 500 (not ready), quickly, while the cache has not synced (the spec holds its first list back): a readiness check that looks whether the cache has synced, with a short timeout")

		gate.Open()
		Eventually(probe).WithArguments("/readyz").WithContext(ctx).Should(Equal(http.StatusOK),
			"GET /readyz should answer 200 once the cache has synced")
		Expect(probe("/healthz")).To(Equal(http.StatusOK), "and /healthz should still answer 200")
	}, SpecTimeout(harness.Timeout))
})

// freeLoopbackAddr returns a loopback address with a port nobody listens on right now.
// controller-runtime does not tell which port it bound, so the spec picks one for it.
func freeLoopbackAddr() string {
	GinkgoHelper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	addr := l.Addr().String()
	Expect(l.Close()).To(Succeed())
	return addr
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
