package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// workshopContexts are the contexts `make cluster` creates. Every program of the workspace that
// writes to the cluster (the specs, lesson 10's operator under make run) loads its config with
// LoadConfig, which accepts these only, unless LESSONS_ALLOW_CONTEXT names another explicitly.
var workshopContexts = []string{LocalContext, KindContext}

// Kubeconfig is the kubeconfig a program of the workspace talks to the cluster with:
// $LESSONS_KUBECONFIG if set, else the workspace cluster's (ClusterDir, so that
// WORKSHOP_CLUSTER_DIR moves it too).
func Kubeconfig() (string, error) {
	if path := os.Getenv("LESSONS_KUBECONFIG"); path != "" {
		return path, nil
	}
	root, err := Root()
	if err != nil {
		return "", err
	}
	return KubeconfigPath(ClusterDir(root)), nil
}

// LoadConfig reads the kubeconfig and returns a rest.Config for its current context, after
// checking, before any request is sent, that the context is one the workspace created.
func LoadConfig() (*rest.Config, error) {
	path, err := Kubeconfig()
	if err != nil {
		return nil, err
	}
	raw, err := clientcmd.LoadFromFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no workshop cluster yet (%s does not exist): run `make cluster`, or `make check`, which starts it for you", path)
	}
	if err != nil {
		return nil, fmt.Errorf("read kubeconfig %s: %w", path, err)
	}
	if err := allowContext(raw); err != nil {
		return nil, err
	}
	return clientcmd.NewDefaultClientConfig(*raw, &clientcmd.ConfigOverrides{}).ClientConfig()
}

// allowContext accepts the kubeconfig's current context when the learner named it in
// LESSONS_ALLOW_CONTEXT, or when it is a workshop context that really leads to the workspace's
// own cluster (ownCluster): a context's name alone proves nothing.
func allowContext(raw *clientcmdapi.Config) error {
	name := raw.CurrentContext
	if name != "" && os.Getenv("LESSONS_ALLOW_CONTEXT") == name {
		return nil
	}
	if slices.Contains(workshopContexts, name) {
		return ownCluster(raw)
	}
	return fmt.Errorf("refusing kubeconfig context %q: these specs create and delete objects, so they run only against the workshop cluster (contexts %v, made by `make cluster`). "+
		"To run them against %q anyway, set LESSONS_ALLOW_CONTEXT=%s", name, workshopContexts, name, name)
}

// CheckReachable asks the server for its version, so that "no cluster" is one clear line
// rather than a connection error in every spec.
func CheckReachable(ctx context.Context, cfg *rest.Config) error {
	short := rest.CopyConfig(cfg)
	short.Timeout = 5 * time.Second
	dc, err := discovery.NewDiscoveryClientForConfig(short)
	if err != nil {
		return err
	}
	if _, err := dc.ServerVersion(); err != nil {
		return fmt.Errorf("the workshop cluster at %s does not answer (%v): start it with `make cluster` (`make check` does that for you)", cfg.Host, err)
	}
	return nil
}
