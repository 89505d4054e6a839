package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// TrustedCAFile, in the cluster folder, is the certificate authority of the cluster `make
// cluster` started there: the one thing a kubeconfig cannot fake by its names. make cluster
// records it (Trust); every program of the workspace checks the context it is given against it.
const TrustedCAFile = "ca.crt"

// Trust records the CA of the kubeconfig's current context as the workspace cluster's own. The
// cluster tool calls it after each start, and when it finds the cluster running.
func Trust(clusterDir string) error {
	raw, err := clientcmd.LoadFromFile(KubeconfigPath(clusterDir))
	if err != nil {
		return err
	}
	cluster, err := currentCluster(raw)
	if err != nil {
		return err
	}
	if len(cluster.CertificateAuthorityData) == 0 {
		return fmt.Errorf("the kubeconfig of %s has no certificate-authority-data to trust", clusterDir)
	}
	return os.WriteFile(filepath.Join(clusterDir, TrustedCAFile), cluster.CertificateAuthorityData, 0o644)
}

// ownCluster checks that a workshop context leads to the workspace's own cluster: a server on
// this machine's loopback, verified with the CA make cluster recorded. A kubeconfig whose context
// is only named like the workspace's is refused before any request is sent.
func ownCluster(raw *clientcmdapi.Config) error {
	cluster, err := currentCluster(raw)
	if err != nil {
		return err
	}
	if !onLoopback(cluster.Server) {
		return fmt.Errorf("refusing kubeconfig context %q: it is named like the workshop cluster's but points at %s, not at this machine (127.0.0.1). "+
			"The workshop cluster runs here: `make cluster`. To run these specs against %s anyway, set LESSONS_ALLOW_CONTEXT=%s", raw.CurrentContext, cluster.Server, cluster.Server, raw.CurrentContext)
	}
	root, err := Root()
	if err != nil {
		return err
	}
	dir := ClusterDir(root)
	trusted, err := os.ReadFile(filepath.Join(dir, TrustedCAFile))
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("refusing kubeconfig context %q: this workspace has not recorded its cluster's CA yet (%s): run `make cluster` once", raw.CurrentContext, filepath.Join(dir, TrustedCAFile))
	}
	if err != nil {
		return err
	}
	if cluster.InsecureSkipTLSVerify || !bytes.Equal(bytes.TrimSpace(cluster.CertificateAuthorityData), bytes.TrimSpace(trusted)) {
		return fmt.Errorf("refusing kubeconfig context %q: its server's CA is not the one `make cluster` recorded for this workspace (%s), so it is another cluster named like the workshop's. "+
			"Start the workshop cluster with `make cluster`, or set LESSONS_ALLOW_CONTEXT=%s to use this one anyway", raw.CurrentContext, filepath.Join(dir, TrustedCAFile), raw.CurrentContext)
	}
	return nil
}

// currentCluster is the cluster entry of the kubeconfig's current context.
func currentCluster(raw *clientcmdapi.Config) (*clientcmdapi.Cluster, error) {
	ctx, ok := raw.Contexts[raw.CurrentContext]
	if !ok {
		return nil, fmt.Errorf("the kubeconfig has no context %q", raw.CurrentContext)
	}
	cluster, ok := raw.Clusters[ctx.Cluster]
	if !ok {
		return nil, fmt.Errorf("the kubeconfig's context %q names no cluster it has (%q)", raw.CurrentContext, ctx.Cluster)
	}
	return cluster, nil
}

// onLoopback says whether server (https://127.0.0.1:6443) is on this machine's loopback.
func onLoopback(server string) bool {
	u, err := url.Parse(server)
	if err != nil {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}
