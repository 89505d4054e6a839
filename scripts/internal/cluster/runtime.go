// Package cluster is the workshop cluster of one workspace: which runtime runs it (kind, or the
// local cluster built from source), why that one was chosen, the state that choice leaves in the
// cluster folder, and what up, ensure, down, status and pull do with it. The runtimes themselves
// live below it: cluster/local (etcd, kube-apiserver, ... as processes on 127.0.0.1) and
// cluster/kind (a kind cluster in a container engine); cluster/lock holds the file locks both
// take. Where the kubeconfig lives, and the guard that keeps specs and operators off any other
// cluster, are in scripts/workspace, the one package lessons import too.
package cluster

import (
	"context"
	"io"
)

// The runtimes a workshop cluster can have. CLUSTER=auto|kind|local asks for one.
const (
	Kind  = "kind"
	Local = "local"
)

// Runtime is what up, ensure, down and status need from either runtime.
type Runtime interface {
	// Up starts the cluster (or reuses it) and waits until it is ready.
	Up(ctx context.Context) error
	// Running says whether the cluster answers now.
	Running(ctx context.Context) bool
	// Down stops it (local: data kept) or deletes it (kind has no stop).
	Down() error
	// Status prints one line per part and says whether all of it runs.
	Status(ctx context.Context, out io.Writer) bool
}
