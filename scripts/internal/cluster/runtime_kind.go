package cluster

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"workshop.local/scripts/internal/cluster/kind"
	"workshop.local/scripts/internal/cluster/lock"
	"workshop.local/scripts/workspace"
)

// kindRuntime is the workshop cluster as a kind cluster in a container engine.
type kindRuntime struct {
	*kind.Cluster
	dir string // the cluster folder: its lock and state record
}

func init() { register(Kind, Needs{NodeImage: true}, newKindRuntime) }

var _ Runtime = (*kindRuntime)(nil)

func newKindRuntime(ctx context.Context, c *Cluster) (Runtime, error) {
	return &kindRuntime{dir: c.dir, Cluster: &kind.Cluster{
		Name:       workspace.KindClusterName(),
		ConfigFile: filepath.Join(c.root, "kind", "cluster.yaml"),
		Image:      NodeImage(),
		Kubeconfig: c.Kubeconfig(),
		Engine:     c.detect(ctx),
		Out:        c.out,
	}}, nil
}

func (*kindRuntime) Name() string { return Kind }

// Up holds a lock so that two `make check` at once do not both run kind's create, and records
// the runtime before creating, so that `make cluster-down` can delete a cluster that a Ctrl-C
// or a failure left half-created.
func (k *kindRuntime) Up(ctx context.Context) error {
	unlock, err := lock.File(ctx, filepath.Join(k.dir, "kind.lock"), k.Out,
		"another `make` is creating the kind cluster; waiting for it")
	if err != nil {
		return err
	}
	defer unlock()
	if !k.Engine.Answers {
		return k.Cluster.Up(ctx) // says why kind cannot run; nothing was made, so nothing is recorded
	}
	if err := record(k.dir, Kind); err != nil {
		return err
	}
	return k.Cluster.Up(ctx)
}

func (k *kindRuntime) Exists(context.Context) bool { return k.Cluster.Exists() }

// Active: a kind cluster the engine holds collides with a new local one, running or not.
func (k *kindRuntime) Active(context.Context) bool { return k.Cluster.Exists() }

// Down deletes the cluster and forgets it: kind has no stop, so nothing is left to reuse.
func (k *kindRuntime) Down(context.Context) error {
	if err := k.Cluster.Down(); err != nil {
		return err
	}
	forget(k.dir)
	fmt.Fprintln(k.Out, "Deleted the kind cluster "+k.Cluster.Name+" and everything in it.")
	return nil
}

// Context is the context kind writes: "kind-" and the cluster's name.
func (k *kindRuntime) Context() string { return "kind-" + k.Cluster.Name }

// HostReach: kind's API server runs in the node container, which reaches this host through the
// container network's gateway.
func (*kindRuntime) HostReach() workspace.HostReach { return workspace.ReachNodeNetwork }

func (k *kindRuntime) Usage(out io.Writer, kubeconfig string) {
	printReady(out, "kind cluster "+k.Cluster.Name, k.Context(), kubeconfig)
}
