package local

import (
	"os"
	"path/filepath"
	"strconv"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"workshop.local/scripts/workspace"
)

// writeKubeconfigs writes the learner's kubeconfig (.cluster/kubeconfig, the admin identity,
// context ctrl-workshop-local) and one kubeconfig per component. Certificates are embedded, the
// server is verified against the cluster CA, and clientcmd writes the files 0600.
func (c *Cluster) writeKubeconfigs(p Ports) error {
	server := "https://127.0.0.1:" + strconv.Itoa(p.APIServer)
	if err := c.writeKubeconfig(workspace.KubeconfigPath(c.Dir), server, adminIdentity, workspace.LocalContext); err != nil {
		return err
	}
	for _, id := range []identity{controllerIdentity, schedulerIdentity, nodeIdentity} {
		if err := c.writeKubeconfig(c.componentKubeconfig(id), server, id, id.file); err != nil {
			return err
		}
	}
	return nil
}

func (c *Cluster) componentKubeconfig(id identity) string {
	return c.path("local", id.file+".kubeconfig")
}

func (c *Cluster) writeKubeconfig(path, server string, id identity, context string) error {
	pki := c.path("pki")
	ca, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		return err
	}
	cert, err := os.ReadFile(filepath.Join(pki, id.file+".crt"))
	if err != nil {
		return err
	}
	key, err := os.ReadFile(filepath.Join(pki, id.file+".key"))
	if err != nil {
		return err
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[context] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: ca}
	cfg.AuthInfos[id.user] = &clientcmdapi.AuthInfo{ClientCertificateData: cert, ClientKeyData: key}
	cfg.Contexts[context] = &clientcmdapi.Context{Cluster: context, AuthInfo: id.user}
	cfg.CurrentContext = context
	return clientcmd.WriteToFile(*cfg, path)
}
