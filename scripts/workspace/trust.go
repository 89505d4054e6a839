package workspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// TrustedFile, in the cluster folder, says which cluster `make cluster` started there: its
// server's address and a digest of its CA, what a kubeconfig cannot fake by its names. make
// cluster records it (Trust); every program of the workspace checks the context it is given
// against it (ownCluster).
const TrustedFile = "trusted"

// Trust records the server and CA of the kubeconfig's current context as the workspace
// cluster's own. The cluster tool calls it after each start, and when it finds the cluster
// running without a record (one started by an older workspace).
func Trust(clusterDir string) error {
	raw, err := clientcmd.LoadFromFile(KubeconfigPath(clusterDir))
	if err != nil {
		return err
	}
	cluster, err := currentCluster(raw)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(clusterDir, TrustedFile), []byte(identity(cluster)), 0o644)
}

// identity is what TrustedFile holds for a cluster: "server <url>" and "ca <sha256>" ("ca none"
// when the kubeconfig carries no CA).
func identity(cluster *clientcmdapi.Cluster) string {
	ca := "none"
	if len(cluster.CertificateAuthorityData) > 0 {
		sum := sha256.Sum256(bytes.TrimSpace(cluster.CertificateAuthorityData))
		ca = hex.EncodeToString(sum[:])
	}
	return "server " + cluster.Server + "\nca " + ca + "\n"
}

// ownCluster checks that a workshop context leads to the workspace's own cluster: a server on
// this machine's loopback, the one make cluster recorded, verified with the CA it recorded. A
// kubeconfig whose context is only named like the workspace's is refused before any request.
func ownCluster(raw *clientcmdapi.Config) error {
	cluster, err := currentCluster(raw)
	if err != nil {
		return err
	}
	name := raw.CurrentContext
	if !onLoopback(cluster.Server) {
		return fmt.Errorf("refusing kubeconfig context %q: it is named like the workshop cluster's but points at %s, not at this machine (127.0.0.1). "+
			"The workshop cluster runs here: `make cluster`. To run these specs against %s anyway, set LESSONS_ALLOW_CONTEXT=%s", name, cluster.Server, cluster.Server, name)
	}
	root, err := Root()
	if err != nil {
		return err
	}
	record := filepath.Join(ClusterDir(root), TrustedFile)
	trusted, err := os.ReadFile(record)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("refusing kubeconfig context %q: this workspace has not recorded which cluster it started yet (%s): run `make cluster` once", name, record)
	}
	if err != nil {
		return err
	}
	if cluster.InsecureSkipTLSVerify || string(trusted) != identity(cluster) {
		return fmt.Errorf("refusing kubeconfig context %q: its server (%s) or its CA is not the cluster `make cluster` recorded for this workspace (%s), so it is another cluster named like the workshop's. "+
			"Start the workshop cluster with `make cluster`, or set LESSONS_ALLOW_CONTEXT=%s to use this one anyway", name, cluster.Server, record, name)
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
