package main_test

import (
	"context"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/yaml"

	kindv1alpha4 "sigs.k8s.io/kind/pkg/apis/config/v1alpha4"

	"workshop.local/scripts/versions"
)

// Each of these runs the tool in a throwaway cluster folder and binary cache, so it can fail
// fast without touching the lifecycle's cluster.
func runIsolated(env ...string) toolResult {
	GinkgoHelper()
	dir, cache := GinkgoT().TempDir(), GinkgoT().TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env = append([]string{"WORKSHOP_CLUSTER_DIR=" + dir, "WORKSHOP_CACHE=" + cache}, env...)
	res, err := runTool(ctx, env, "up")
	Expect(err).NotTo(HaveOccurred())
	return res
}

// fakeBin makes a folder holding one executable shell script per name=script pair.
func fakeBin(scripts map[string]string) string {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	for name, body := range scripts {
		Expect(os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755)).To(Succeed())
	}
	return dir
}

// stoppedDocker answers like a Docker client whose engine is not running.
var stoppedDocker = map[string]string{"docker": `if [ "$1" = info ]; then
  echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2; exit 1
fi
echo "Docker version 28.2.2, build e6534b4"`}

var _ = Describe("clear errors", func() {
	It("rejects an unknown CLUSTER value", func() {
		res := runIsolated("CLUSTER=bogus")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring(`CLUSTER="bogus" is not a runtime of the workshop cluster: use auto, kind or local`))
	})

	It("says Go is missing when the binaries must be built without a Go toolchain", func() {
		res := runIsolated("PATH=" + fakeBin(nil))
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("`go` is not on PATH: install Go 1.26"))
	})

	It("says the module proxy is unreachable when a build cannot download", func() {
		res := runIsolated("GOPROXY=http://127.0.0.1:1", "GOMODCACHE="+GinkgoT().TempDir(), "GOSUMDB=off")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("the Go module proxy could not be reached (GOPROXY=http://127.0.0.1:1)"))
		Expect(res.output).To(ContainSubstring("building etcd failed"))
	})

	It("refuses a WORKSHOP_API_PORT another program holds, naming the port and the way out", func() {
		held := listenOn(0)
		defer held.Close()
		port := held.Addr().String()[len("127.0.0.1:"):]
		res := runIsolated("WORKSHOP_API_PORT=" + port)
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("port " + port + " (WORKSHOP_API_PORT) is in use by another program"))
	})
})

var _ = Describe("choosing kind", func() {
	It("explains that no container engine is installed and names CLUSTER=local", func() {
		res := runIsolated("CLUSTER=kind", "PATH="+fakeBin(nil))
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("No container engine is installed"))
		Expect(res.output).To(ContainSubstring("CLUSTER=local make cluster"))
	})

	It("explains that Docker is installed but not running, in one sentence with the way out", func() {
		res := runIsolated("CLUSTER=kind", "PATH="+fakeBin(stoppedDocker))
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("docker is installed but its engine is not running (Cannot connect to the Docker daemon"))
		Expect(res.output).To(ContainSubstring("CLUSTER=local make cluster"))
	})

	It("says under CLUSTER=auto that Docker is stopped, rather than building the local cluster", func() {
		res := runIsolated("CLUSTER=auto", "PATH="+fakeBin(stoppedDocker))
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("docker is installed but its engine is not running (Cannot connect to the Docker daemon"))
		Expect(res.output).To(ContainSubstring("CLUSTER=local make cluster"))
		Expect(res.output).NotTo(ContainSubstring("Workshop cluster: local"))
	})

	It("chooses the local cluster under CLUSTER=auto when no engine is installed, and says so", func() {
		// No go on this PATH either, so the run stops right after announcing its choice.
		res := runIsolated("CLUSTER=auto", "PATH="+fakeBin(nil))
		Expect(res.output).To(ContainSubstring("Workshop cluster: local (no container engine (docker, podman or nerdctl) is installed"))
	})

	It("has a kind config with one control-plane node on the pinned image, on loopback", func() {
		data, err := os.ReadFile(filepath.Join(rootDir, "kind", "cluster.yaml"))
		Expect(err).NotTo(HaveOccurred())
		var cfg kindv1alpha4.Cluster
		Expect(yaml.UnmarshalStrict(data, &cfg)).To(Succeed())
		Expect(cfg.Kind).To(Equal("Cluster"))
		Expect(cfg.Nodes).To(HaveLen(1))
		Expect(cfg.Nodes[0].Role).To(Equal(kindv1alpha4.ControlPlaneRole))
		Expect(cfg.Nodes[0].Image).To(Equal(versions.KindNodeImage()))
		Expect(cfg.Nodes[0].Image).To(MatchRegexp(`@sha256:[0-9a-f]{64}$`))
		Expect(cfg.Networking.APIServerAddress).To(Equal("127.0.0.1"))
	})
})
