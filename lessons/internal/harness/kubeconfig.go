// Package harness is the spec harness every lesson's suite uses: it finds the workshop cluster,
// refuses any other cluster, gives each spec its own namespace, and keeps specs bounded.
// Learners never need to edit it.
package harness

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

	"workshop.local/scripts/workspace"
)

// workshopContexts are the contexts `make cluster` creates. Specs run against these only,
// unless LESSONS_ALLOW_CONTEXT names another context explicitly.
var workshopContexts = []string{workspace.LocalContext, workspace.KindContext}

// KubeconfigPath is $LESSONS_KUBECONFIG if set, else the workspace's .cluster/kubeconfig.
func KubeconfigPath() (string, error) {
	if path := os.Getenv("LESSONS_KUBECONFIG"); path != "" {
		return path, nil
	}
	root, err := workspace.Root()
	if err != nil {
		return "", err
	}
	return workspace.KubeconfigPath(workspace.ClusterDir(root)), nil
}

// LoadConfig reads the kubeconfig and returns a rest.Config for its current context, after
// checking, before any request is sent, that the context is one the workspace created.
func LoadConfig() (*rest.Config, error) {
	path, err := KubeconfigPath()
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
	if err := allowContext(raw.CurrentContext); err != nil {
		return nil, err
	}
	return clientcmd.NewDefaultClientConfig(*raw, &clientcmd.ConfigOverrides{}).ClientConfig()
}

func allowContext(name string) error {
	if slices.Contains(workshopContexts, name) || (name != "" && os.Getenv("LESSONS_ALLOW_CONTEXT") == name) {
		return nil
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
