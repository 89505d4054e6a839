package kindcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"sigs.k8s.io/kind/pkg/cluster"
	kindcmd "sigs.k8s.io/kind/pkg/cmd"

	"workshop.local/scripts/internal/probe"
	"workshop.local/scripts/workspace"
)

// Cluster is the workshop's kind cluster. Its kubeconfig goes to .cluster/kubeconfig, never into
// the learner's ~/.kube/config.
type Cluster struct {
	ConfigFile string // kind/cluster.yaml: nodes and the node image pinned by digest
	Kubeconfig string // .cluster/kubeconfig
	Engine     Engine // the engine that answered
	Out        io.Writer
}

func (c *Cluster) provider() *cluster.Provider {
	opts := []cluster.ProviderOption{cluster.ProviderWithLogger(kindcmd.NewLogger())}
	switch c.Engine.Name {
	case "podman":
		opts = append(opts, cluster.ProviderWithPodman())
	case "nerdctl":
		opts = append(opts, cluster.ProviderWithNerdctl(""))
	default:
		opts = append(opts, cluster.ProviderWithDocker())
	}
	return cluster.NewProvider(opts...)
}

// Up creates the cluster, or reuses it (re-exporting its kubeconfig) when it exists already.
func (c *Cluster) Up(ctx context.Context) error {
	if !c.Engine.Answers {
		return errors.New(c.Engine.Explain())
	}
	p := c.provider()
	names, err := p.List()
	if err != nil {
		return fmt.Errorf("kind could not list clusters through %s: %w", c.Engine.Name, err)
	}
	if slices.Contains(names, workspace.KindCluster) {
		fmt.Fprintf(c.Out, "The kind cluster %q exists; reusing it.\n", workspace.KindCluster)
		return p.ExportKubeConfig(workspace.KindCluster, c.Kubeconfig, false)
	}
	fmt.Fprintf(c.Out, "Creating the kind cluster %q with %s (the first run pulls the node image)...\n", workspace.KindCluster, c.Engine.Name)
	return p.Create(workspace.KindCluster,
		cluster.CreateWithConfigFile(c.ConfigFile),
		cluster.CreateWithKubeconfigPath(c.Kubeconfig),
		cluster.CreateWithWaitForReady(3*time.Minute),
		cluster.CreateWithDisplayUsage(false),
		cluster.CreateWithDisplaySalutation(false))
}

// Running is true when the cluster exists and its API answers.
func (c *Cluster) Running(ctx context.Context) bool {
	return c.Status(ctx, io.Discard)
}

// Down deletes the kind cluster (kind has no "stop"): the objects in it are gone afterwards.
func (c *Cluster) Down() error {
	if !c.Engine.Answers {
		return errors.New(c.Engine.Explain())
	}
	return c.provider().Delete(workspace.KindCluster, c.Kubeconfig)
}

// Status says whether the cluster exists and its API answers; true when both hold.
func (c *Cluster) Status(ctx context.Context, out io.Writer) bool {
	if !c.Engine.Answers {
		fmt.Fprintln(out, "  "+c.Engine.Explain())
		return false
	}
	names, err := c.provider().List()
	if err != nil || !slices.Contains(names, workspace.KindCluster) {
		fmt.Fprintf(out, "  kind cluster %q: not found\n", workspace.KindCluster)
		return false
	}
	fmt.Fprintf(out, "  kind cluster %q: exists (%s)\n", workspace.KindCluster, c.Engine.Name)
	if err := probe.Readyz(ctx, c.Kubeconfig); err != nil {
		fmt.Fprintf(out, "  API server: not answering (%v)\n", err)
		return false
	}
	fmt.Fprintln(out, "  API server: answering /readyz")
	return true
}
