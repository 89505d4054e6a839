// Package cluster is the workshop cluster of one workspace: which runtime runs it (kind, or the
// local cluster built from source), why that one was chosen, the state that choice leaves in the
// cluster folder, and what up, ensure, down, status and pull do with it. The runtimes themselves
// live below it: cluster/local (etcd, kube-apiserver, ... as processes on 127.0.0.1) and
// cluster/kind (a kind cluster in a container engine); cluster/lock holds the file locks both
// take. Where the kubeconfig lives, and the guard that keeps specs and operators off any other
// cluster, are in scripts/workspace, the one package lessons import too.
//
// The shape is kwokctl's (sigs.k8s.io/kwok pkg/kwokctl/runtime): the runtimes register in a
// registry (registry.go), Decide picks one by name once, and from then on only that runtime's
// methods run. Nothing outside Decide and the runtimes (runtime_kind.go, runtime_local.go)
// compares a runtime's name: every fact about a runtime is a method of it.
package cluster

import (
	"context"
	"io"

	"workshop.local/scripts/workspace"
)

// The runtimes a workshop cluster can have. CLUSTER=auto|kind|local asks for one.
const (
	Kind  = "kind"
	Local = "local"
)

// Runtime is one way to run the workshop cluster. Each runtime owns its lock, the record of
// itself in the cluster folder (state.go), its kubeconfig context and every word the learner
// reads about it.
type Runtime interface {
	// Name is the runtime's name in the registry, in CLUSTER and in the state record.
	Name() string
	// Up starts the cluster (or reuses it) under the runtime's own lock, records the runtime in
	// the cluster folder, and waits until the cluster is ready.
	Up(ctx context.Context) error
	// Running says whether the cluster answers now.
	Running(ctx context.Context) bool
	// Exists says whether a recorded cluster of this runtime is still there to reuse.
	Exists(ctx context.Context) bool
	// Active says whether it would collide with a new cluster of another runtime.
	Active(ctx context.Context) bool
	// Down stops it (local: data kept) or deletes it (kind has no stop), says which, and
	// forgets the record when nothing is left to reuse.
	Down(ctx context.Context) error
	// Status prints one line per part and says whether all of it runs.
	Status(ctx context.Context, out io.Writer) bool
	// Context is the kubeconfig context the runtime writes.
	Context() string
	// HostReach is how its API server reaches a process on this machine (a webhook server):
	// recorded in the cluster folder for lessons (workspace.HostReachOf).
	HostReach() workspace.HostReach
	// Usage tells the learner what is running and how to use it (make cluster's last lines).
	Usage(out io.Writer, kubeconfig string)
}

// Needs, registered with each runtime (registry.go), are what it needs on the machine, so that make doctor can fail on what the chosen
// runtime lacks and only warn about the rest.
type Needs struct {
	Binaries  bool // the cluster programs built from source (binaries.Binaries)
	NodeImage bool // the pinned kind node image in the container engine
}
