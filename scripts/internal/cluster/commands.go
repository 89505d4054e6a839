package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/versions"
	"workshop.local/scripts/workspace"
)

// Up chooses the runtime, starts or reuses the cluster and tells the learner what they got and
// how to use it.
func (c *Cluster) Up(ctx context.Context) error {
	if err := c.choose(ctx); err != nil {
		return err
	}
	return c.up(ctx)
}

func (c *Cluster) up(ctx context.Context) error {
	if err := checkOwner(c.dir, c.root); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "Workshop cluster: %s (%s).\n", c.runtime.Name(), c.why)
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	if err := recordOwner(c.dir, c.root); err != nil {
		return err
	}
	if err := c.runtime.Up(ctx); err != nil {
		return err
	}
	// The CA of the kubeconfig the runtime has just written is the one the workspace's programs
	// trust (workspace.Trust).
	if err := workspace.Trust(c.dir); err != nil {
		return err
	}
	if err := c.recordHostReach(); err != nil {
		return err
	}
	c.runtime.Usage(c.out, c.Kubeconfig())
	c.sweepLeftovers(ctx)
	return nil
}

// Ensure is Up for other commands (make check): it starts the cluster only if it is not
// running; when it is, it says so in one line.
func (c *Cluster) Ensure(ctx context.Context) error {
	if err := c.choose(ctx); err != nil {
		return err
	}
	if Recorded(c.dir) == c.runtime.Name() && c.runtime.Running(ctx) {
		fmt.Fprintf(c.out, "Workshop cluster: %s, running (kubeconfig %s).\n", c.runtime.Name(), c.Kubeconfig())
		if err := c.recordHostReach(); err != nil { // a cluster started before it was recorded
			return err
		}
		return c.trustOnce()
	}
	return c.up(ctx)
}

// recordHostReach records how the runtime's API server reaches this machine, for lessons.
func (c *Cluster) recordHostReach() error {
	return workspace.RecordHostReach(c.dir, c.runtime.Context(), c.runtime.HostReach())
}

// trustOnce records a running cluster that was started before the workspace recorded one (an
// older workspace); a cluster this workspace started has it from its start.
func (c *Cluster) trustOnce() error {
	if _, err := os.Stat(filepath.Join(c.dir, workspace.TrustedFile)); err == nil {
		return nil
	}
	return workspace.Trust(c.dir)
}

// printReady is the part of make cluster's last lines every runtime prints: what runs, its
// context and how to use its kubeconfig.
func printReady(out io.Writer, what, context, kubeconfig string) {
	fmt.Fprintf(out, "\nReady: %s.\n  context:    %s\n  kubeconfig: %s\n", what, context, kubeconfig)
	fmt.Fprintf(out, "For kubectl in this shell:\n  export KUBECONFIG=%s\n", kubeconfig)
}

// Down stops the cluster. The local cluster keeps its data for the next `make cluster`;
// a kind cluster is deleted, half-created or not, because kind has no stop.
func (c *Cluster) Down(ctx context.Context) error {
	recorded := Recorded(c.dir)
	if recorded == "" {
		fmt.Fprintln(c.out, "No workshop cluster has been started in this workspace; nothing to stop.")
		return nil
	}
	r, err := c.recorded(ctx)
	if err != nil {
		return err
	}
	return r.Down(ctx)
}

// ErrNotRunning makes `make cluster-status` exit non-zero when the cluster is not up, so
// scripts can test it; the printed lines say what is wrong.
var ErrNotRunning = errors.New("the workshop cluster is not running: start it with `make cluster`")

// Status prints the recorded runtime and the state of each of its parts.
func (c *Cluster) Status(ctx context.Context) error {
	recorded := Recorded(c.dir)
	if recorded == "" {
		return errors.New("no workshop cluster has been started in this workspace: start one with `make cluster`")
	}
	fmt.Fprintf(c.out, "Workshop cluster: %s (kubeconfig %s)\n", recorded, c.Kubeconfig())
	r, err := c.recorded(ctx)
	if err != nil {
		return err
	}
	if !r.Status(ctx, c.out) {
		return ErrNotRunning
	}
	fmt.Fprintln(c.out, "Running.")
	return nil
}

// Why says which runtime CLUSTER asks for on this machine, and why, without starting anything.
func (c *Cluster) Why(ctx context.Context) error {
	if err := c.choose(ctx); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "CLUSTER=%s: the %s runtime, because %s.\n", orAuto(c.wanted), c.runtime.Name(), c.why)
	if recorded := Recorded(c.dir); recorded != "" {
		fmt.Fprintf(c.out, "This workspace's cluster folder (%s) records a %s cluster.\n", c.dir, recorded)
	}
	return nil
}

func orAuto(s string) string {
	if s == "" {
		return "auto"
	}
	return s
}

// Pull fetches the kind node image now, with progress, so that a later `make cluster` needs no
// network; it says so when the image is here already.
func (c *Cluster) Pull(ctx context.Context) error {
	engine, image := c.detect(ctx), NodeImage()
	if !engine.Answers {
		return errors.New(engine.Explain())
	}
	if engine.ImagePresent(ctx, image) {
		fmt.Fprintf(c.out, "%s already holds the kind node image %s.\n", engine.Name, image)
		return nil
	}
	if err := engine.Pull(ctx, image, c.out); err != nil {
		return err
	}
	if recorded := Recorded(c.dir); recorded != "" && !NeedsOf(recorded).NodeImage {
		fmt.Fprintf(c.out, "Pulled. This workspace has a %s cluster, which auto keeps using; to switch: `make cluster-down`, then `CLUSTER=kind make cluster`.\n", recorded)
		return nil
	}
	fmt.Fprintln(c.out, "Pulled. `make cluster` will use kind now.")
	return nil
}

// EnvtestAssets prints the folder to use as KUBEBUILDER_ASSETS, and nothing else on stdout, so
// `export KUBEBUILDER_ASSETS=$(make -s envtest-assets)` works; building and the hint go to stderr.
func (c *Cluster) EnvtestAssets(ctx context.Context) error {
	bins, err := binaries.Default(c.root)
	if err != nil {
		return err
	}
	dir, err := bins.EnsureEnvtest(ctx, os.Stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "etcd, kube-apiserver and kubectl (Kubernetes %s) for controller-runtime's envtest:\n"+
		"  export KUBEBUILDER_ASSETS=%s\n", versions.Kubernetes(), dir)
	fmt.Fprintln(c.out, dir)
	return nil
}

// Prune removes the cluster builds in the shared binary cache that no clone on this machine
// uses any more (old pins, old build recipes, workshop-kube built from older sources), and says
// what it removed. It never touches the build this workspace uses.
func (c *Cluster) Prune(context.Context) error {
	bins, err := binaries.Default(c.root)
	if err != nil {
		return err
	}
	stale, err := bins.Stale()
	if err != nil {
		return err
	}
	if len(stale) == 0 {
		fmt.Fprintf(c.out, "Nothing to remove: every build in %s is in use.\n", filepath.Dir(bins.Dir))
		return nil
	}
	for _, s := range stale {
		fmt.Fprintf(c.out, "  removing %s (%d MB)\n", s.Path, s.Bytes>>20)
	}
	if err := binaries.Prune(stale); err != nil {
		return fmt.Errorf("removing old cluster builds: %w", err)
	}
	fmt.Fprintf(c.out, "Removed %s that no clone on this machine uses.\n", binaries.StaleSummary(stale))
	return nil
}
