package local

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	certutil "k8s.io/client-go/util/cert"

	"workshop.local/scripts/internal/probe"
	"workshop.local/scripts/internal/text"
	"workshop.local/scripts/workspace"
)

// readyCheck returns nil once a component does its job: etcd reports healthy, the API server
// answers /readyz, the controller-manager and scheduler answer /healthz, the node is Ready.
func (c *Cluster) readyCheck(name string, p Ports, started time.Time) func(context.Context) error {
	switch name {
	case "etcd":
		return c.etcdHealthy("https://127.0.0.1:" + strconv.Itoa(p.EtcdClient) + "/health")
	case "kube-apiserver":
		return c.apiReady
	case "kube-controller-manager":
		return httpOK("https://127.0.0.1:" + strconv.Itoa(p.ControllerMgr) + "/healthz")
	case "kube-scheduler":
		return httpOK("https://127.0.0.1:" + strconv.Itoa(p.Scheduler) + "/healthz")
	default:
		return func(ctx context.Context) error { return c.nodeReady(ctx, started) }
	}
}

// probeClient talks to the components' own health ports, which serve self-signed certificates
// they generate at start. It only reads a health word; the learner's kubeconfig verifies TLS.
var probeClient = &http.Client{
	Timeout:   2 * time.Second,
	Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}, //nolint:gosec // health probe of a loopback component
}

func httpOK(url string) func(context.Context) error {
	return getOK(probeClient, url)
}

// etcdHealthy asks etcd's /health as the API server would: etcd answers only clients with a
// certificate from its own CA, and is verified against that CA.
func (c *Cluster) etcdHealthy(url string) func(context.Context) error {
	pki := c.path("pki")
	cert, err := tls.LoadX509KeyPair(filepath.Join(pki, etcdClientIdentity.file+".crt"), filepath.Join(pki, etcdClientIdentity.file+".key"))
	if err != nil {
		return func(context.Context) error { return err }
	}
	roots, err := certutil.NewPool(filepath.Join(pki, "etcd-ca.crt"))
	if err != nil {
		return func(context.Context) error { return err }
	}
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: roots, MinVersion: tls.VersionTLS12}}}
	return getOK(client, url)
}

// getOK wants a 200 from url.
func getOK(client *http.Client, url string) func(context.Context) error {
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s answered %d: %s", url, resp.StatusCode, strings.TrimSpace(string(body)))
		}
		return nil
	}
}

// apiReady asks /readyz with the admin identity, as kubectl would.
func (c *Cluster) apiReady(ctx context.Context) error {
	return probe.Readyz(ctx, workspace.KubeconfigPath(c.Dir))
}

// nodeReady wants the Node Ready with a heartbeat sent after since: after a restart the Node
// object still says Ready from the previous run until the new kubelet reports in.
func (c *Cluster) nodeReady(ctx context.Context, since time.Time) error {
	cs, err := probe.Clientset(workspace.KubeconfigPath(c.Dir))
	if err != nil {
		return err
	}
	node, err := cs.CoreV1().Nodes().Get(ctx, NodeName, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := initialized(node); err != nil {
		return err
	}
	for _, cond := range node.Status.Conditions {
		fresh := !cond.LastHeartbeatTime.Time.Before(since.Truncate(time.Second))
		if cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue && fresh {
			return nil
		}
	}
	return errors.New("node " + NodeName + " is not Ready yet")
}

// uninitializedTaint is the taint a kubelet with an external cloud provider registers with.
const uninitializedTaint = "node.cloudprovider.kubernetes.io/uninitialized"

// initialized checks what the hollow node does after it registers (build/kube/hollownode): the
// Node's address is 127.0.0.1 and the taint that keeps Pods away until then is gone.
func initialized(node *corev1.Node) error {
	for _, taint := range node.Spec.Taints {
		if taint.Key == uninitializedTaint {
			return errors.New("node " + NodeName + " is not initialized yet (taint " + taint.Key + ")")
		}
	}
	for _, addr := range node.Status.Addresses {
		if addr.Type == corev1.NodeInternalIP && addr.Address == "127.0.0.1" {
			return nil
		}
	}
	return errors.New("node " + NodeName + " does not have its address 127.0.0.1 yet")
}

// waitReady polls a started component until its check passes. It fails fast, naming the
// component and its log, if the process exits, and fails at the timeout if it never gets ready.
func (c *Cluster) waitReady(ctx context.Context, proc process, check func(context.Context) error, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var lastErr error
	for {
		if proc.pid() == 0 {
			return fmt.Errorf("%s exited during start; its log is %s:\n%s", proc.name, proc.logPath, logTail(proc.logPath))
		}
		if lastErr = check(ctx); lastErr == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s did not become ready within %s (last check: %v); its log is %s:\n%s",
				proc.name, timeout, lastErr, proc.logPath, logTail(proc.logPath))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func logTail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "    (no log)"
	}
	return text.Tail(string(data), 15, "    ")
}
