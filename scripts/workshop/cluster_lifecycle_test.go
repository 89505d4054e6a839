package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"workshop.local/scripts/versions"
	"workshop.local/scripts/workspace"
)

// startTimeout covers a first start on a fresh machine, which builds the binaries.
const startTimeout = 30 * time.Minute

var components = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "hollow-node"}

// The lifecycle runs in order on one scratch cluster: each step starts from the state the
// previous one left, as a learner's terminal would.
var _ = Describe("the local cluster lifecycle", Ordered, func() {
	It("starts from nothing and says what it started and how to use it", func() {
		out := mustRun(startTimeout, "up")
		Expect(out).To(ContainSubstring("Workshop cluster: local (CLUSTER=local)"))
		Expect(out).To(ContainSubstring("context:    " + workspace.LocalContext))
		Expect(out).To(ContainSubstring("export KUBECONFIG=" + scratchKubeconfig()))
		Expect(out).To(MatchRegexp(`alias kubectl='/\S+/kubectl'`), "should say how to use the kubectl built with the cluster")
		Expect(out).To(ContainSubstring("hollow-node"), "progress should name each component as it gets ready")
	})

	It("writes a kubeconfig that verifies TLS and authenticates with a client certificate", func() {
		cfg, err := clientcmd.LoadFromFile(scratchKubeconfig())
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.CurrentContext).To(Equal(workspace.LocalContext))
		ctx := cfg.Contexts[cfg.CurrentContext]
		cluster := cfg.Clusters[ctx.Cluster]
		Expect(cluster.Server).To(HavePrefix("https://127.0.0.1:"))
		Expect(cluster.InsecureSkipTLSVerify).To(BeFalse())
		Expect(cluster.CertificateAuthorityData).NotTo(BeEmpty())
		Expect(cfg.AuthInfos[ctx.AuthInfo].ClientCertificateData).NotTo(BeEmpty())
	})

	It("keeps the kubeconfig and every private key readable by the owner only", func() {
		keys, _ := filepath.Glob(filepath.Join(scratchDir, "pki", "*.key"))
		Expect(keys).To(HaveLen(12), "want keys for 2 CAs (cluster, etcd), 3 servers (apiserver, kubelet, etcd), "+
			"service accounts, admin, 3 components and the apiserver's 2 clients (kubelet, etcd)")
		for _, f := range append(keys, scratchKubeconfig()) {
			info, err := os.Stat(f)
			Expect(err).NotTo(HaveOccurred())
			Expect(info.Mode().Perm()).To(Equal(os.FileMode(0o600)), f)
		}
	})

	It("is the Kubernetes release the workspace pins, stamped into the binaries", func() {
		v, err := adminClient().Discovery().ServerVersion()
		Expect(err).NotTo(HaveOccurred())
		Expect(v.GitVersion).To(Equal(versions.Kubernetes()))
		Expect(v.GitCommit).NotTo(ContainSubstring("$Format"), "gitCommit should be stamped (the tag's commit or a sentence)")
		Expect(v.BuildDate).NotTo(HavePrefix("1970"), "buildDate should be the tag's commit time")
	})

	It("refuses anonymous requests", func() {
		cfg, err := clientcmd.BuildConfigFromFlags("", scratchKubeconfig())
		Expect(err).NotTo(HaveOccurred())
		cfg.CertData, cfg.KeyData = nil, nil // trust the CA, but present no client certificate
		cs, err := kubernetes.NewForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())
		_, err = cs.CoreV1().Namespaces().List(context.Background(), metav1.ListOptions{})
		Expect(err).To(MatchError(ContainSubstring("Unauthorized")))
	})

	itExposesNothingToTheNetwork()

	itRunsRealWorkloads()

	It("reuses a running cluster instead of starting another", func() {
		before := pidOf("kube-apiserver")
		Expect(mustRun(time.Minute, "up")).To(ContainSubstring("already running; reusing it"))
		Expect(pidOf("kube-apiserver")).To(Equal(before))
	})

	itSweepsAbandonedWebhooks()

	It("restarts a cluster that an older workspace started with other flags, keeping its data", func() {
		pidFile := filepath.Join(scratchDir, "local", "run", "kube-scheduler.pid")
		data, err := os.ReadFile(pidFile)
		Expect(err).NotTo(HaveOccurred())
		fields := strings.Fields(string(data))
		Expect(fields).To(HaveLen(3), "pid, binary, fingerprint of program and flags")
		// What a pid file written before the fingerprint existed looks like: pid and binary only.
		Expect(os.WriteFile(pidFile, []byte(fields[0]+"\n"+fields[1]+"\n"), 0o644)).To(Succeed())
		out := mustRun(5*time.Minute, "up")
		Expect(out).NotTo(ContainSubstring("reusing"))
		Expect(pidOf("kube-scheduler")).NotTo(Equal(fields[0]))
	})

	It("reports every component and the API in status", func() {
		out := mustRun(time.Minute, "status")
		for _, c := range components {
			Expect(out).To(MatchRegexp(c + ` +running \(pid \d+\)`))
		}
		Expect(out).To(ContainSubstring("API server: answering /readyz"))
		Expect(out).To(ContainSubstring("node workshop-node: Ready"))
	})

	It("recovers from a kill -9 of the API server and keeps the learner's objects", func() {
		ctx := context.Background()
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "survivor", Namespace: "default"}}
		_, err := adminClient().CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())

		pid, _ := strconv.Atoi(pidOf("kube-apiserver"))
		Expect(syscall.Kill(pid, syscall.SIGKILL)).To(Succeed())
		// The killed process lingers as a zombie until its parent (init, the components run
		// detached) reaps it, and a zombie's pid still answers: give the reaping a moment.
		Eventually(func(g Gomega) {
			res, err := runTool(ctx, nil, "status")
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(res.exitCode).NotTo(BeZero())
			g.Expect(res.output).To(MatchRegexp(`kube-apiserver +DOWN`))
			g.Expect(res.output).To(ContainSubstring("Not as it should be: kube-apiserver."))
		}).WithTimeout(10 * time.Second).WithPolling(200 * time.Millisecond).Should(Succeed())

		mustRun(5*time.Minute, "up")
		_, err = adminClient().CoreV1().ConfigMaps("default").Get(ctx, "survivor", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred(), "the ConfigMap created before the crash should survive the restart")
	})

	It("finds a component whose pid file is garbage: never a second one, never one left behind", func() {
		mustRun(5*time.Minute, "up")
		old, _ := strconv.Atoi(pidOf("kube-scheduler"))
		pidFile := filepath.Join(scratchDir, "local", "run", "kube-scheduler.pid")
		Expect(os.WriteFile(pidFile, []byte("garbage\n"), 0o644)).To(Succeed())

		res, err := runTool(within(time.Minute), nil, "status")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring(fmt.Sprintf("kube-scheduler           running without its pid file (pid %d)", old)))
		Expect(res.output).To(ContainSubstring("Not as it should be: kube-scheduler."))

		out := mustRun(5*time.Minute, "up")
		Expect(out).To(ContainSubstring(fmt.Sprintf("Restarting the local cluster: kube-scheduler runs (pid %d) but its pid file does not name it.", old)))
		Expect(schedulers()).To(HaveLen(1), "one scheduler for one cluster")
		Expect(schedulers()).NotTo(ContainElement(old), "the one the garbled pid file lost is stopped")

		Expect(os.WriteFile(pidFile, []byte("garbage\n"), 0o644)).To(Succeed())
		mustRun(time.Minute, "down")
		Expect(schedulers()).To(BeEmpty(), "make cluster-down leaves no component of this cluster behind")
		mustRun(5*time.Minute, "up")
	})

	It("ignores stale pid files, even one naming a live process of another program", func() {
		mustRun(time.Minute, "down")
		run := filepath.Join(scratchDir, "local", "run")
		self, _ := os.Executable()
		// This spec's own pid, recorded as if it were etcd: after a reboot pids are reused.
		Expect(os.WriteFile(filepath.Join(run, "etcd.pid"), []byte(strconv.Itoa(os.Getpid())+"\n"+self+"x\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(run, "kube-apiserver.pid"), []byte("999999\n/nonexistent\n"), 0o644)).To(Succeed())
		mustRun(5*time.Minute, "up")
		Expect(pidOf("etcd")).NotTo(Equal(strconv.Itoa(os.Getpid())))
	})

	It("moves off a saved port that another program has taken meanwhile", func() {
		mustRun(time.Minute, "down")
		oldPort := savedPorts()["apiServer"]
		held := listenOn(oldPort)
		defer held.Close()
		out := mustRun(5*time.Minute, "up")
		Expect(out).To(ContainSubstring("port %d is in use by another program", oldPort))
		Expect(savedPorts()["apiServer"]).NotTo(Equal(oldPort))
		_, err := adminClient().Discovery().ServerVersion()
		Expect(err).NotTo(HaveOccurred(), "the kubeconfig should follow the API server to its new port")
	})

	It("starts one cluster when two `make cluster` run at once", func() {
		mustRun(time.Minute, "down")
		// The runs report back whatever happens, and are judged here: an Expect failing in a
		// goroutine would end it before it reported, and leave this spec waiting forever.
		ctx := within(5 * time.Minute)
		results := make(chan toolResult, 2)
		for range 2 {
			go func() {
				res, err := runTool(ctx, nil, "up")
				if err != nil {
					res.exitCode, res.output = -1, res.output+err.Error()
				}
				results <- res
			}()
		}
		first, second := <-results, <-results
		Expect(first.exitCode).To(BeZero(), "one `cluster up` failed:\n%s", first.output)
		Expect(second.exitCode).To(BeZero(), "one `cluster up` failed:\n%s", second.output)
		both := first.output + second.output
		Expect(strings.Count(both, "kube-apiserver           ready after")).To(Equal(1))
		Expect(both).To(ContainSubstring("waiting for it to finish"))
		Expect(both).To(ContainSubstring("already running; reusing it"))
	})

	It("stops in reverse order, frees its ports and leaves no pid files", func() {
		ports := savedPorts()
		Expect(mustRun(time.Minute, "down")).To(ContainSubstring("ports are free"))
		for _, port := range ports {
			Expect(listenOn(port).Close()).To(Succeed()) // listenOn fails the spec if the port is held
		}
		pidFiles, _ := filepath.Glob(filepath.Join(scratchDir, "local", "run", "*.pid"))
		Expect(pidFiles).To(BeEmpty())
		res, err := runTool(within(time.Minute), nil, "status")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.exitCode).NotTo(BeZero())
	})
})

func adminClient() *kubernetes.Clientset {
	return kubernetes.NewForConfigOrDie(adminConfig())
}

func adminConfig() *rest.Config {
	cfg, err := clientcmd.BuildConfigFromFlags("", scratchKubeconfig())
	Expect(err).NotTo(HaveOccurred())
	return cfg
}

func savedPorts() map[string]int {
	data, err := os.ReadFile(filepath.Join(scratchDir, "local", "ports.json"))
	Expect(err).NotTo(HaveOccurred())
	ports := map[string]int{}
	Expect(json.Unmarshal(data, &ports)).To(Succeed())
	return ports
}

func listenOn(port int) net.Listener {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	Expect(err).NotTo(HaveOccurred(), "port %d should be free", port)
	return l
}

// schedulers are the pids of this spec cluster's kube-scheduler processes, found by their command
// line (they name the scratch folder), whatever their pid file says.
func schedulers() []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		args := strings.Split(string(cmdline), "\x00")
		if len(args) > 1 && args[1] == "kube-scheduler" && strings.Contains(string(cmdline), scratchDir+"/") {
			if stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); !strings.Contains(string(stat), ") Z ") {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}
