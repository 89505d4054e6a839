package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
)

// Reusing a kind cluster, with a fake docker that plays one existing, running node and a fake
// API server (TLS, on loopback) that stands for the node's kube-apiserver. kind's own
// ExportKubeConfig runs for real: it reads admin.conf through `docker exec` and points it at the
// endpoint `docker inspect` gives.

// runningNodeDocker answers the calls kind makes to list the cluster, find its control plane,
// read its admin.conf and its API endpoint; any other call is logged and fails.
const runningNodeDocker = `case "$1" in
  info) case "$*" in *json*) echo '{"CgroupDriver":"cgroupfs"}' ;; esac ;;
  image) [ -z "$FAKE_NO_IMAGE" ] ;;
  rm) echo "deleted $*" >> "$FAKE_DELETED" ;;
  pull) echo "Error response from daemon: dial tcp: lookup registry-1.docker.io: no such host" >&2; exit 1 ;;
  -v) echo "Docker version 28.2.2, build e6534b4" ;;
  ps) # FAKE_PS_EMPTY_LIST: no cluster until kind's create has begun
    if [ -n "$FAKE_PS_EMPTY_LIST" ] && [ ! -e "$FAKE_DELETED.started" ]; then exit 0; fi
    case "$*" in *Names*) echo "$FAKE_NAME-control-plane" ;; *) echo "$FAKE_NAME" ;; esac ;;
  inspect) case "$*" in
      *--type=image*) : > "$FAKE_DELETED.started"; echo "kind create started" >> "$FAKE_DELETED"; read -r _ < "$FAKE_FIFO" ;;
      *State.Running*) echo true ;;
      *kind.role*) echo control-plane ;;
      *desktop.docker.io*) echo "$FAKE_SERVER" ;;
      *) echo "unexpected: $*" >> "$FAKE_LOG"; exit 1 ;;
    esac ;;
  exec) while IFS= read -r line; do printf '%s\n' "$line"; done < "$FAKE_ADMIN_CONF" ;;
  *) echo "unexpected: $*" >> "$FAKE_LOG"; exit 1 ;;
esac`

// adminConf is what kubeadm writes on the node; the fake API server takes any token.
const adminConf = `apiVersion: v1
kind: Config
clusters:
- cluster:
    server: https://control-plane:6443
    insecure-skip-tls-verify: true
  name: kubernetes
contexts:
- context: {cluster: kubernetes, user: kubernetes-admin}
  name: kubernetes-admin@kubernetes
current-context: kubernetes-admin@kubernetes
users:
- name: kubernetes-admin
  user: {token: fake}
`

// fakeAPI answers /readyz with 500 notReadyFor times, then "ok", and lists one node whose Ready
// condition is nodeReady.
func fakeAPI(notReadyFor int32, nodeReady string) (*httptest.Server, *atomic.Int32) {
	var readyz atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if readyz.Add(1) <= notReadyFor {
			http.Error(w, "[-]etcd failed: not ready yet", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, "ok")
	})
	mux.HandleFunc("/api/v1/nodes", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"kind": "NodeList", "apiVersion": "v1", "items": []any{
			map[string]any{"metadata": map[string]any{"name": "control-plane"},
				"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": nodeReady}}}}}})
	})
	server := httptest.NewTLSServer(mux)
	DeferCleanup(server.Close)
	return server, &readyz
}

func reuseEnv(server *httptest.Server, name string) (env []string, log string) {
	GinkgoHelper()
	tmp := GinkgoT().TempDir()
	conf, log := filepath.Join(tmp, "admin.conf"), filepath.Join(tmp, "docker.log")
	Expect(os.WriteFile(conf, []byte(adminConf), 0o600)).To(Succeed())
	return []string{"PATH=" + fakeBin(map[string]string{"docker": runningNodeDocker}),
		"FAKE_NAME=" + name, "FAKE_SERVER=" + strings.TrimPrefix(server.URL, "https://"),
		"FAKE_ADMIN_CONF=" + conf, "FAKE_LOG=" + log, "FAKE_DELETED=" + filepath.Join(tmp, "deleted.log")}, log
}

var _ = Describe("reusing a kind cluster", func() {
	It("waits for its API after a restart of the engine, then says Ready", func() {
		server, readyz := fakeAPI(3, "True")
		name := testClusterName()
		env, log := reuseEnv(server, name)
		res := kindRun(GinkgoT().TempDir(), name, env, "up")
		Expect(res.exitCode).To(BeZero(), res.output)
		Expect(res.output).To(ContainSubstring("exists; reusing it"))
		Expect(res.output).To(ContainSubstring("Ready: kind cluster " + name))
		Expect(readyz.Load()).To(BeNumerically(">", 3), "the API answered only on its 4th /readyz")
		Expect(log).NotTo(BeAnExistingFile(), "no call beyond listing, inspecting and reading admin.conf")
	})

	It("fails, keeping the cluster and naming the way out, when its node never gets Ready", func() {
		server, _ := fakeAPI(0, "False")
		name := testClusterName()
		env, log := reuseEnv(server, name)
		res := kindRun(GinkgoT().TempDir(), name, append(env, "WORKSHOP_KIND_READY_TIMEOUT=2s"), "up")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring(`the kind cluster "` + name + `" is not ready after 2s: node control-plane is not Ready`))
		Expect(res.output).To(ContainSubstring("`make cluster-down` deletes it"))
		Expect(res.output).NotTo(ContainSubstring("Ready: kind cluster"))
		Expect(log).NotTo(BeAnExistingFile(), "nothing deleted: a slow cluster keeps its objects")
	})

	It("deletes and recreates a cluster whose node never got its kubeconfig (a create stopped half-way)", func() {
		server, _ := fakeAPI(0, "True")
		name := testClusterName()
		env, log := reuseEnv(server, name)
		deleted := strings.TrimPrefix(env[len(env)-1], "FAKE_DELETED=")
		env = append(env, "FAKE_ADMIN_CONF=/nonexistent/admin.conf", "FAKE_NO_IMAGE=1")
		res := kindRun(GinkgoT().TempDir(), name, env, "up")
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("cannot be reused (its kubeconfig cannot be read, so its creation never finished"))
		Expect(res.output).To(ContainSubstring("deleting it and creating it again"))
		Expect(os.ReadFile(deleted)).To(ContainSubstring(name+"-control-plane"), "kind deleted the node")
		Expect(res.output).To(ContainSubstring("failed: the registry cannot be reached"))
		Expect(log).NotTo(BeAnExistingFile())
	})

	It("stops kind's create on Ctrl-C and deletes what it made", func() {
		server, _ := fakeAPI(0, "True")
		name, dir := testClusterName(), GinkgoT().TempDir()
		env, _ := reuseEnv(server, name)
		deleted := strings.TrimPrefix(env[len(env)-1], "FAKE_DELETED=")
		fifo := filepath.Join(GinkgoT().TempDir(), "hang")
		Expect(syscall.Mkfifo(fifo, 0o600)).To(Succeed())
		DeferCleanup(func() { // let the fake's hanging command go
			if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				_ = f.Close()
			}
		})
		cmd := exec.Command(toolPath, "cluster", "up")
		cmd.Dir = rootDir
		cmd.Env = append(os.Environ(), append(env, "WORKSHOP_CLUSTER_DIR="+dir, "CLUSTER=kind", "WORKSHOP_KIND_CLUSTER="+name,
			"WORKSHOP_KIND_NODE_IMAGE="+unpullableImage, "FAKE_FIFO="+fifo, "FAKE_PS_EMPTY_LIST=1")...)
		session, err := gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(session.Kill)
		Eventually(func() (string, error) { b, err := os.ReadFile(deleted); return string(b), err }).
			WithTimeout(30 * time.Second).Should(ContainSubstring("kind create started"))

		session.Interrupt()
		Eventually(session).WithTimeout(15 * time.Second).Should(gexec.Exit(2))
		Expect(string(session.Out.Contents())).To(ContainSubstring(`Interrupted: deleting the half-created kind cluster "` + name + `"`))
		Expect(string(session.Err.Contents())).To(ContainSubstring("creating the kind cluster was interrupted"))
		Expect(os.ReadFile(deleted)).To(ContainSubstring("deleted rm -f -v " + name + "-control-plane"))
	})
})
