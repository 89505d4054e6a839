// Package probe asks a cluster, through a kubeconfig, whether its API server is ready.
package probe

import (
	"context"
	"fmt"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// Clientset builds a client from kubeconfig with a short timeout, for health checks.
func Clientset(kubeconfig string) (*kubernetes.Clientset, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.Timeout = 3 * time.Second
	return kubernetes.NewForConfig(cfg)
}

// Readyz returns nil when the API server answers /readyz with "ok", as `kubectl get --raw
// /readyz` would, authenticated with the kubeconfig's identity.
func Readyz(ctx context.Context, kubeconfig string) error {
	cs, err := Clientset(kubeconfig)
	if err != nil {
		return err
	}
	body, err := cs.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(body)) != "ok" {
		return fmt.Errorf("/readyz: %s", body)
	}
	return nil
}
