package cluster

import (
	"context"
	"fmt"
	"io"
	"os"

	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/internal/cluster/local"
	"workshop.local/scripts/versions"
	"workshop.local/scripts/workspace"
)

// localRuntime is the workshop cluster as processes on 127.0.0.1, built from source.
type localRuntime struct {
	*local.Cluster
}

func init() { register(Local, Needs{Binaries: true}, newLocalRuntime) }

var _ Runtime = (*localRuntime)(nil)

func newLocalRuntime(_ context.Context, c *Cluster) (Runtime, error) {
	bins, err := binaries.Default(c.root)
	if err != nil {
		return nil, err
	}
	return &localRuntime{&local.Cluster{Dir: c.dir, Bins: bins, Out: c.out}}, nil
}

func (*localRuntime) Name() string { return Local }

// Up starts the cluster under local.Cluster's own lock (local/up.lock), then records it: a
// local cluster that never came up left nothing for `make cluster-down` to stop.
func (l *localRuntime) Up(ctx context.Context) error {
	if err := l.Cluster.Up(ctx); err != nil {
		return err
	}
	return record(l.Dir, Local)
}

// Exists: a stopped local cluster keeps its data in the folder, so it is there to reuse.
func (*localRuntime) Exists(context.Context) bool { return true }

// Active: only a running local cluster collides (with its ports); a stopped one keeps only data.
func (l *localRuntime) Active(ctx context.Context) bool { return l.Running(ctx) }

// Down stops the processes and keeps the record and the data for the next `make cluster`.
func (l *localRuntime) Down(context.Context) error {
	if err := l.Cluster.Down(); err != nil {
		return err
	}
	fmt.Fprintln(l.Out, "Stopped the local cluster; its ports are free. Its data stays in "+l.Dir+" for the next `make cluster`.")
	return nil
}

func (*localRuntime) Context() string { return workspace.LocalContext }

// HostReach: the local API server runs on this host.
func (*localRuntime) HostReach() workspace.HostReach { return workspace.ReachLoopback }

// Usage also points at the kubectl built with the cluster: the machine's own may be many minors
// behind it, outside the one-minor skew kubectl supports.
func (l *localRuntime) Usage(out io.Writer, kubeconfig string) {
	printReady(out, "embedded local cluster, Kubernetes "+versions.Kubernetes()+" built from source", l.Context(), kubeconfig)
	kubectl := l.Bins.Path("kubectl")
	if _, err := os.Stat(kubectl); err != nil {
		return
	}
	fmt.Fprintf(out, "kubectl %s, built with the cluster (yours may be older):\n  alias kubectl='%s'\n", versions.Kubernetes(), kubectl)
}
