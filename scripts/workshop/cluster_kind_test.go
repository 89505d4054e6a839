package main_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"
	"github.com/onsi/gomega/gexec"
)

// The kind path, tested against the machine's real container engine where it can show the case
// without any image pulled (a half-created cluster is a container labelled as kind labels its
// nodes, made from a one-file image imported offline), and against a fake engine where a real
// one cannot (a pull that hangs, Podman). Every spec names its own kind cluster
// (WORKSHOP_KIND_CLUSTER) and a node image no registry has (WORKSHOP_KIND_NODE_IMAGE), so it
// never touches a learner's cluster and never pulls the real node image.

// unpullableImage fails at once everywhere: nothing listens on port 1.
const unpullableImage = "localhost:1/workshop-test/no-such-node:v0"

// kindLabel is the label kind puts on every node (constants.go in kind's docker provider).
const kindLabel = "io.x-k8s.kind.cluster"

// kindRun runs the tool in its own scratch folder with CLUSTER=kind, a test cluster name and
// an unpullable node image; env overrides those.
func kindRun(dir, name string, env []string, args ...string) toolResult {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	env = append([]string{"WORKSHOP_CLUSTER_DIR=" + dir, "WORKSHOP_CACHE=" + GinkgoT().TempDir(),
		"CLUSTER=kind", "WORKSHOP_KIND_CLUSTER=" + name, "WORKSHOP_KIND_NODE_IMAGE=" + unpullableImage}, env...)
	res, err := runTool(ctx, env, args...)
	Expect(err).NotTo(HaveOccurred())
	return res
}

func testClusterName() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return "ws-test-" + hex.EncodeToString(b)
}

// requireDocker skips, saying why, where no Docker engine answers.
func requireDocker() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if exec.CommandContext(ctx, "docker", "info").Run() != nil {
		Skip("no Docker engine answers `docker info` here; the kind path's engine specs need one")
	}
}

func docker(args ...string) string {
	GinkgoHelper()
	out, err := commandWithin(within(time.Minute), "docker", args...).CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "docker %s: %s", strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

// fakeKindNode makes what a Ctrl-C during kind's create leaves: a node container, labelled as
// kind labels it, that never ran. Its image is one file, imported offline; both go at the end.
func fakeKindNode(cluster string) {
	GinkgoHelper()
	image := "workshop-test/tiny-node:" + cluster
	var tarball bytes.Buffer
	tw := tar.NewWriter(&tarball)
	Expect(tw.WriteHeader(&tar.Header{Name: "README", Mode: 0o644, Size: 2})).To(Succeed())
	_, _ = tw.Write([]byte("x\n"))
	Expect(tw.Close()).To(Succeed())
	cmd := commandWithin(within(time.Minute), "docker", "import", "-", image)
	cmd.Stdin = &tarball
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "docker import: %s", out)
	DeferCleanup(func(ctx SpecContext) { _ = commandWithin(ctx, "docker", "rmi", "-f", image).Run() }, NodeTimeout(time.Minute))
	docker("create", "--name", cluster+"-control-plane",
		"--label", kindLabel+"="+cluster, "--label", "io.x-k8s.kind.role=control-plane", image, "/kind/never-runs")
	DeferCleanup(func(ctx SpecContext) { _ = commandWithin(ctx, "docker", "rm", "-f", cluster+"-control-plane").Run() }, NodeTimeout(time.Minute))
}

func kindNodes(cluster string) string {
	return docker("ps", "-a", "--filter", "label="+kindLabel+"="+cluster, "--format", "{{.Names}}")
}

func writeClusterType(dir, kind string) {
	GinkgoHelper()
	Expect(os.WriteFile(filepath.Join(dir, "cluster-type"), []byte(kind+"\n"), 0o644)).To(Succeed())
}

var _ = Describe("the kind path against the real engine", func() {
	BeforeEach(requireDocker)

	It("recovers a half-created cluster: deletes it, creates it again, and says why the pull fails", func() {
		dir, name := GinkgoT().TempDir(), testClusterName()
		fakeKindNode(name)
		res := kindRun(dir, name, nil, "up")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("exists; reusing it"))
		Expect(res.output).To(ContainSubstring("cannot be reused (its node " + name + "-control-plane does not start"))
		Expect(res.output).To(ContainSubstring("deleting it and creating it again"))
		Expect(res.output).To(ContainSubstring("pulling the kind node image " + unpullableImage + " failed: the registry cannot be reached"))
		Expect(kindNodes(name)).To(BeEmpty())
		Expect(os.ReadFile(filepath.Join(dir, "cluster-type"))).To(Equal([]byte("kind\n")),
			"the kind is recorded before the create, so cluster-down can clean up after a failure")
	})

	It("deletes a half-created cluster on cluster-down", func() {
		dir, name := GinkgoT().TempDir(), testClusterName()
		fakeKindNode(name)
		writeClusterType(dir, "kind")
		res := kindRun(dir, name, nil, "down")
		Expect(res.exitCode).To(BeZero(), res.output)
		Expect(res.output).To(ContainSubstring("Deleted the kind cluster " + name))
		Expect(kindNodes(name)).To(BeEmpty())
		Expect(filepath.Join(dir, "cluster-type")).NotTo(BeAnExistingFile())
	})

	It("says on cluster-status that a recorded kind cluster is gone", func() {
		dir, name := GinkgoT().TempDir(), testClusterName()
		writeClusterType(dir, "kind")
		res := kindRun(dir, name, nil, "status")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring(`kind cluster "` + name + `": not found`))
	})

	It("chooses local under auto when the node image cannot be pulled, saying why and how to choose", func() {
		dir, name := GinkgoT().TempDir(), testClusterName()
		// Only docker on PATH, no go: the run stops right after announcing its choice.
		res := kindRun(dir, name, []string{"CLUSTER=auto", "PATH=" + onlyRealDocker()}, "up")
		Expect(res.output).To(ContainSubstring("Workshop cluster: local (docker answers but the kind node image cannot be pulled: the registry cannot be reached"))
		Expect(res.output).To(ContainSubstring("pull it with `make kind-pull`; CLUSTER=local makes this choice silent"))
	})

	It("pulls the node image ahead of time on make kind-pull, and says why it cannot", func() {
		res := kindRun(GinkgoT().TempDir(), testClusterName(), nil, "pull")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("Pulling the kind node image " + unpullableImage))
		Expect(res.output).To(ContainSubstring("failed: the registry cannot be reached: no network or a proxy in the way"))
	})

	It("forgets under auto a kind cluster that no longer exists, and chooses again", func() {
		dir, name := GinkgoT().TempDir(), testClusterName()
		writeClusterType(dir, "kind")
		res := kindRun(dir, name, []string{"CLUSTER=auto", "PATH=" + onlyRealDocker()}, "up")
		Expect(res.output).NotTo(ContainSubstring("this workspace's cluster is a kind cluster"))
		Expect(res.output).To(ContainSubstring("Workshop cluster: local (docker answers but the kind node image cannot be pulled"))
	})
})

// onlyRealDocker is a PATH folder holding just the machine's docker client.
func onlyRealDocker() string {
	GinkgoHelper()
	real, err := exec.LookPath("docker")
	Expect(err).NotTo(HaveOccurred())
	dir := GinkgoT().TempDir()
	Expect(os.Symlink(real, filepath.Join(dir, "docker"))).To(Succeed())
	return dir
}

// hangingPullDocker answers like Docker with no image, lists no cluster, logs each pull to
// $FAKE_LOG and then hangs, as a pull over a dead network does.
var hangingPullDocker = map[string]string{"docker": `case "$1" in
  info) exit 0 ;;
  -v) echo "Docker version 28.2.2, build e6534b4" ;;
  image) exit 1 ;;
  ps) exit 0 ;;
  pull) echo "pull $2" >> "$FAKE_LOG"; echo "Pulling from workshop-test"; exec SLEEP 300 ;;
  *) echo "unexpected: $*" >> "$FAKE_LOG"; exit 1 ;;
esac`}

// brokenPodman answers info and its version, holds the image, and fails everything else
// with a message kind must not hide.
const brokenPodman = `case "$1" in
  info|image) exit 0 ;;
  -v|--version|version) echo "podman version 5.2.0" ;;
  *) echo "Error: podman $1 broke on purpose" >&2; exit 125 ;;
esac`

// startKind starts the tool in the background against a fake engine folder.
func startKind(dir, name, bin, log string) *gexec.Session {
	GinkgoHelper()
	cmd := exec.Command(toolPath, "cluster", "up")
	cmd.Dir = rootDir
	cmd.Env = append(os.Environ(), "WORKSHOP_CLUSTER_DIR="+dir, "CLUSTER=kind", "WORKSHOP_KIND_CLUSTER="+name,
		"WORKSHOP_KIND_NODE_IMAGE="+unpullableImage, "PATH="+bin, "FAKE_LOG="+log)
	session, err := gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { session.Kill() })
	return session
}

var _ = Describe("the kind path against a fake engine", func() {
	It("stops a hanging pull on Ctrl-C at once, without retrying, and a second create waits for the first", func() {
		dir, log := GinkgoT().TempDir(), filepath.Join(GinkgoT().TempDir(), "docker.log")
		sleep, err := exec.LookPath("sleep")
		Expect(err).NotTo(HaveOccurred())
		bin := fakeBin(map[string]string{"docker": strings.Replace(hangingPullDocker["docker"], "SLEEP", sleep, 1)})
		first := startKind(dir, testClusterName(), bin, log)
		Eventually(func() (string, error) { b, err := os.ReadFile(log); return string(b), err }).
			WithTimeout(30 * time.Second).Should(ContainSubstring("pull " + unpullableImage))

		second := startKind(dir, testClusterName(), bin, log)
		Eventually(second.Out).WithTimeout(30 * time.Second).Should(gbytes.Say("another `make` is creating the kind cluster; waiting for it"))

		first.Interrupt()
		Eventually(first).WithTimeout(10 * time.Second).Should(gexec.Exit(2))
		Expect(string(first.Err.Contents())).To(ContainSubstring("was interrupted"))
		second.Interrupt()
		Eventually(second).WithTimeout(10 * time.Second).Should(gexec.Exit())
		data, err := os.ReadFile(log)
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Count(string(data), "pull ")).To(BeNumerically("<=", 2), "one pull per run, never a retry:\n%s", data)
		Expect(string(data)).NotTo(ContainSubstring("unexpected"))
	})

	It("honours KIND_EXPERIMENTAL_PROVIDER=podman and shows the output of the command that failed", func() {
		bin := fakeBin(map[string]string{"docker": `echo "Docker version 28.2.2"`, "podman": brokenPodman})
		res := kindRun(GinkgoT().TempDir(), testClusterName(), []string{"PATH=" + bin, "KIND_EXPERIMENTAL_PROVIDER=podman"}, "up")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("kind could not list clusters through podman"))
		Expect(res.output).To(ContainSubstring("broke on purpose"))
	})

	It("drives Podman as Podman behind the podman-docker shim", func() {
		bin := fakeBin(map[string]string{"docker": `case "$1" in -v) echo "podman version 5.2.0" ;; *) exit 0 ;; esac`, "podman": brokenPodman})
		res := kindRun(GinkgoT().TempDir(), testClusterName(), []string{"PATH=" + bin}, "up")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("kind could not list clusters through podman"))
	})

	It("accepts CLUSTER=kind after cluster-down of a local cluster", func() {
		dir := GinkgoT().TempDir()
		writeClusterType(dir, "local") // what a stopped local cluster leaves, with its data
		res := kindRun(dir, testClusterName(), []string{"PATH=" + fakeBin(stoppedDocker)}, "up")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).NotTo(ContainSubstring("make cluster-down"))
		Expect(res.output).To(ContainSubstring("docker is installed but its engine is not running"))
		Expect(os.ReadFile(filepath.Join(dir, "cluster-type"))).To(Equal([]byte("local\n")), "nothing was made, so the record stays")
	})
})
