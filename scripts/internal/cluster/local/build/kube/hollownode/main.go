// Package hollownode runs the workshop cluster's one node: a real kubelet, from kubemark's library,
// with a fake container runtime. The scheduler binds Pods to it and it reports them Running, but
// no container ever runs.
//
// The workshop-kube program (../workshopkube) runs it as its hollow-node command. We run it
// from our own code instead of the kubemark binary because kubemark's kubelet
// listens on every interface over plain HTTP with no authentication: anyone on the same Wi-Fi
// could list the Pods and read the host's /var/log. This package keeps kubemark's fake runtime
// and changes only what decides who can reach the kubelet (see kubelet.go):
//
//   - it listens on 127.0.0.1 only, over TLS, with a certificate from the cluster's CA;
//   - every request must carry a client certificate from that CA (or a token the API server
//     accepts), and the API server decides, through a SubjectAccessReview, what the caller may do;
//   - no read-only port, no host log files, no profiling;
//   - its sockets (the container runtime's, the kubelet's) live in a folder only the learner can
//     open;
//   - `kubectl exec`, `attach`, `port-forward` and `logs` reach the node and say that it runs no
//     containers (runtime.go).
package hollownode

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"k8s.io/klog/v2"
)

// options are the command-line flags; the cluster tool (scripts/internal/localcluster) sets them.
type options struct {
	kubeconfig string // the node's identity: system:node:<name> in group system:nodes
	rootDir    string // the node's folder, mode 0700: kubelet state and every unix socket
	name       string // the Node's name
	port       int    // the kubelet's HTTPS port on 127.0.0.1
	certFile   string // serving certificate for 127.0.0.1, signed by the cluster CA
	keyFile    string
	clientCA   string // CA that signs the client certificates the kubelet accepts
	labels     string // extra node labels, k=v,k=v
	maxPods    int
}

// Main parses the hollow node's flags from args (without the program's name), runs the node
// until SIGTERM or SIGINT, and returns the exit code.
func Main(args []string) int {
	var o options
	flags := flag.NewFlagSet("hollow-node", flag.ContinueOnError)
	flags.StringVar(&o.kubeconfig, "kubeconfig", "", "kubeconfig with the node's identity")
	flags.StringVar(&o.rootDir, "root-dir", "", "the node's folder (mode 0700), for the kubelet's state and sockets")
	flags.StringVar(&o.name, "name", "workshop-node", "the Node's name")
	flags.IntVar(&o.port, "port", 10250, "the kubelet's HTTPS port on 127.0.0.1")
	flags.StringVar(&o.certFile, "tls-cert-file", "", "the kubelet's serving certificate")
	flags.StringVar(&o.keyFile, "tls-private-key-file", "", "the key of --tls-cert-file")
	flags.StringVar(&o.clientCA, "client-ca-file", "", "CA whose client certificates the kubelet accepts")
	flags.StringVar(&o.labels, "node-labels", "", "extra node labels, k=v,k=v")
	flags.IntVar(&o.maxPods, "max-pods", 110, "how many Pods the node accepts")
	klog.InitFlags(flags) // --v and friends
	if err := flags.Parse(args); err != nil {
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "hollow-node:", err)
		return 1
	}
	return 0
}

// run starts the fake runtime and the kubelet, then initializes the Node object, and blocks
// until the cluster tool stops the process.
func run(ctx context.Context, o options) error {
	for _, f := range []string{o.kubeconfig, o.rootDir, o.certFile, o.keyFile, o.clientCA} {
		if f == "" {
			return fmt.Errorf("--kubeconfig, --root-dir, --tls-cert-file, --tls-private-key-file and --client-ca-file are required")
		}
	}
	if err := requirePrivate(o.rootDir); err != nil {
		return err
	}
	clients, err := newClients(o.kubeconfig)
	if err != nil {
		return err
	}
	runtime, err := startFakeRuntime(ctx, o.rootDir)
	if err != nil {
		return err
	}
	defer runtime.Stop()

	kubelet, err := newSafeKubelet(ctx, o, clients, runtime)
	if err != nil {
		return err
	}
	go initializeNode(ctx, clients.main, o.name)
	go kubelet.Run(ctx) // blocks forever; the kubelet has no clean shutdown path
	<-ctx.Done()
	return nil
}

// requirePrivate refuses to start when other users could open the folder holding our sockets.
func requirePrivate(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s has mode %v: the node's sockets need a folder only you can open (chmod 700)", dir, info.Mode().Perm())
	}
	return nil
}

// parseLabels turns "a=b,c=d" into a map.
func parseLabels(s string) (map[string]string, error) {
	labels := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("node label %q is not key=value", kv)
		}
		labels[k] = v
	}
	return labels, nil
}

// retryEvery calls f until it returns true or ctx ends.
func retryEvery(ctx context.Context, d time.Duration, f func() bool) {
	for !f() {
		select {
		case <-ctx.Done():
			return
		case <-time.After(d):
		}
	}
}
