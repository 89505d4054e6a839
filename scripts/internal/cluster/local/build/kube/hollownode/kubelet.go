package hollownode

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"k8s.io/apimachinery/pkg/types"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	kubeletapp "k8s.io/kubernetes/cmd/kubelet/app"
	kubeletoptions "k8s.io/kubernetes/cmd/kubelet/app/options"
	kubeletconfig "k8s.io/kubernetes/pkg/kubelet/apis/config"
	cadvisortest "k8s.io/kubernetes/pkg/kubelet/cadvisor/testing"
	"k8s.io/kubernetes/pkg/kubelet/cm"
	"k8s.io/kubernetes/pkg/kubelet/server"
	"k8s.io/kubernetes/pkg/kubemark"
)

// clients are the node's two API clients, built the way kubemark builds them: one for
// everything, and one for heartbeats, never throttled, with a timeout shorter than the lease.
type clients struct{ main, heartbeat *clientset.Clientset }

func newClients(kubeconfig string) (clients, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return clients{}, fmt.Errorf("load %s: %w", kubeconfig, err)
	}
	cfg.UserAgent = "hollow-kubelet"
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	main, err := clientset.NewForConfig(cfg)
	if err != nil {
		return clients{}, err
	}
	hb := *cfg
	hb.Timeout, hb.QPS = 10*time.Second, -1
	heartbeat, err := clientset.NewForConfig(&hb)
	return clients{main, heartbeat}, err
}

// newSafeKubelet takes kubemark's hollow kubelet and changes what decides who may reach it.
func newSafeKubelet(ctx context.Context, o options, c clients, rt *fakeRuntime) (*kubemark.HollowKubelet, error) {
	labels, err := parseLabels(o.labels)
	if err != nil {
		return nil, err
	}
	flags, cfg := kubemark.GetHollowKubeletConfig(&kubemark.HollowKubeletOptions{
		NodeName: o.name, KubeletPort: o.port, MaxPods: o.maxPods, NodeLabels: labels,
	})
	if err := useRootDir(flags, cfg, filepath.Join(o.rootDir, "kubelet")); err != nil {
		return nil, err
	}
	secure(cfg, o)
	// kubemark's node would advertise the machine's network address, which the API server
	// cannot reach (the kubelet listens on 127.0.0.1 only) and which the kubelet refuses to
	// replace by a loopback one. With an "external" cloud provider the kubelet leaves the
	// addresses to someone else: initializeNode (node.go) sets them to 127.0.0.1.
	flags.CloudProvider = "external"

	hk := kubemark.NewHollowKubelet(flags, cfg, c.main, c.heartbeat,
		&cadvisortest.Fake{NodeName: o.name}, rt.ImageService, rt.runtime, cm.NewStubContainerManager())

	// kubemark leaves these two empty, and the kubelet then serves plain HTTP to anyone.
	hk.KubeletDeps.TLSOptions = &server.TLSOptions{
		MinVersion:   tls.VersionTLS12,
		CertFile:     cfg.TLSCertFile,
		KeyFile:      cfg.TLSPrivateKeyFile,
		ClientCAFile: cfg.Authentication.X509.ClientCAFile,
	}
	auth, runCAReload, err := kubeletapp.BuildAuth(types.NodeName(o.name), c.main, *cfg)
	if err != nil {
		return nil, fmt.Errorf("build the kubelet's authentication: %w", err)
	}
	runCAReload(ctx.Done())
	hk.KubeletDeps.Auth = auth
	return hk, nil
}

// useRootDir moves the kubelet's folders (its state, the pod-resources and pods-API sockets,
// static Pods, Pod logs) from the fresh folder kubemark made under /tmp into ours.
func useRootDir(flags *kubeletoptions.KubeletFlags, cfg *kubeletconfig.KubeletConfiguration, root string) error {
	_ = os.RemoveAll(flags.RootDirectory)
	flags.RootDirectory = root
	cfg.StaticPodPath = filepath.Join(root, "static-pods")
	cfg.PodLogsDir = filepath.Join(root, "pod-logs")
	for _, dir := range []string{cfg.StaticPodPath, cfg.PodLogsDir} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// secure sets the kubelet's listening and access fields, as on a kubeadm node, on top of
// kubemark's defaults.
func secure(cfg *kubeletconfig.KubeletConfiguration, o options) {
	cfg.Address = "127.0.0.1" // kubemark: 0.0.0.0, every interface
	cfg.ReadOnlyPort = 0      // the unauthenticated read-only port stays closed
	cfg.HealthzPort = 0       // no separate, unauthenticated health port
	cfg.TLSCertFile, cfg.TLSPrivateKeyFile = o.certFile, o.keyFile

	// Who is calling: a client certificate from the cluster CA, or a bearer token the API server
	// vouches for (TokenReview). Nobody else: anonymous requests get 401.
	cfg.Authentication.Anonymous.Enabled = false
	cfg.Authentication.X509.ClientCAFile = o.clientCA
	cfg.Authentication.Webhook.Enabled = true
	cfg.Authentication.Webhook.CacheTTL.Duration = 2 * time.Minute
	// What they may do: the API server's RBAC decides (SubjectAccessReview on nodes/proxy,
	// nodes/log, ...). The API server itself holds system:kubelet-api-admin.
	cfg.Authorization.Mode = kubeletconfig.KubeletAuthorizationModeWebhook
	cfg.Authorization.Webhook.CacheAuthorizedTTL.Duration = 5 * time.Minute
	cfg.Authorization.Webhook.CacheUnauthorizedTTL.Duration = 30 * time.Second

	// The debugging handlers carry `kubectl logs`, `exec`, `attach` and `port-forward`, which the
	// API server forwards to the kubelet; they stay on, behind the authorization above, so these
	// commands reach the node and get the fake runtime's answer. The handlers that expose the
	// host itself stay off: /logs/ (the host's /var/log), profiling, and changing the log level.
	cfg.EnableDebuggingHandlers = true
	cfg.EnableSystemLogHandler = false
	cfg.EnableSystemLogQuery = false
	cfg.EnableProfilingHandler = false
	cfg.EnableContentionProfiling = false
	cfg.EnableDebugFlagsHandler = false
}
