package kind

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"sigs.k8s.io/kind/pkg/cluster"
	kindcmd "sigs.k8s.io/kind/pkg/cmd"
	kindexec "sigs.k8s.io/kind/pkg/exec"
)

// Cluster is the workshop's kind cluster. Its kubeconfig goes to .cluster/kubeconfig, never into
// the learner's ~/.kube/config.
type Cluster struct {
	Name       string // workspace.KindCluster; the tool's own tests use another
	ConfigFile string // kind/cluster.yaml: nodes and the node image pinned by digest
	Image      string // that node image (KIND_NODE_IMAGE)
	Kubeconfig string // .cluster/kubeconfig
	Engine     Engine // the engine that answered
	Out        io.Writer
}

// readyTimeout bounds the wait for a new or reused cluster's API and node;
// $WORKSHOP_KIND_READY_TIMEOUT (a Go duration) shortens it for the tool's own tests.
func readyTimeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("WORKSHOP_KIND_READY_TIMEOUT")); err == nil {
		return d
	}
	return 3 * time.Minute
}

func (c *Cluster) provider() *cluster.Provider {
	opts := []cluster.ProviderOption{cluster.ProviderWithLogger(kindcmd.NewLogger())}
	switch c.Engine.Name {
	case "podman":
		opts = append(opts, cluster.ProviderWithPodman())
	case "nerdctl", "finch", "nerdctl.lima":
		opts = append(opts, cluster.ProviderWithNerdctl(c.Engine.Name))
	default:
		opts = append(opts, cluster.ProviderWithDocker())
	}
	return cluster.NewProvider(opts...)
}

// Exists is true when the engine holds at least one node of this cluster, running or not.
func (c *Cluster) Exists() bool {
	if !c.Engine.Answers {
		return false
	}
	names, err := c.provider().List()
	return err == nil && slices.Contains(names, c.Name)
}

// Up creates the cluster, or reuses it when it exists and can be brought back: stopped nodes
// are started, and a cluster that a Ctrl-C left half-created is deleted and created again.
func (c *Cluster) Up(ctx context.Context) error {
	if !c.Engine.Answers {
		return errors.New(c.Engine.Explain())
	}
	names, err := c.provider().List()
	if err != nil {
		return fmt.Errorf("kind could not list clusters through %s: %w", c.Engine.Name, withOutput(err))
	}
	if slices.Contains(names, c.Name) {
		reuseErr := c.reuse(ctx)
		var broken halfCreated
		if !errors.As(reuseErr, &broken) || ctx.Err() != nil {
			return reuseErr // reused, or a cluster that runs but is slow: its objects are kept
		}
		fmt.Fprintf(c.Out, "The kind cluster %q cannot be reused (%v); deleting it and creating it again.\n", c.Name, reuseErr)
		if err := c.Down(); err != nil {
			return err
		}
	}
	return c.create(ctx)
}

// halfCreated marks a cluster that cannot be brought back: a node that does not start, or no
// kubeconfig on the node because kind's create stopped before kubeadm wrote it.
type halfCreated struct{ error }

// reuse starts the cluster's stopped nodes, exports its kubeconfig and waits for its API.
func (c *Cluster) reuse(ctx context.Context) error {
	fmt.Fprintf(c.Out, "The kind cluster %q exists; reusing it.\n", c.Name)
	if err := c.startStoppedNodes(ctx); err != nil {
		return halfCreated{err}
	}
	if err := c.provider().ExportKubeConfig(c.Name, c.Kubeconfig, false); err != nil {
		return halfCreated{fmt.Errorf("its kubeconfig cannot be read, so its creation never finished: %w", withOutput(err))}
	}
	if err := c.waitReady(ctx); err != nil {
		return fmt.Errorf("%w; `make cluster-down` deletes it (and its objects), then `make cluster` creates a new one", err)
	}
	return nil
}

// startStoppedNodes starts nodes that are not running (Podman after a reboot, a stopped Docker
// Desktop): kind has no start command, but its nodes are ordinary containers.
func (c *Cluster) startStoppedNodes(ctx context.Context) error {
	nodes, err := c.provider().ListNodes(c.Name)
	if err != nil {
		return withOutput(err)
	}
	for _, node := range nodes {
		state, err := exec.CommandContext(ctx, c.Engine.Name, "inspect", "-f", "{{.State.Running}}", node.String()).Output()
		if err == nil && strings.TrimSpace(string(state)) == "true" {
			continue
		}
		fmt.Fprintf(c.Out, "Starting its stopped node %s...\n", node)
		if out, err := exec.CommandContext(ctx, c.Engine.Name, "start", node.String()).CombinedOutput(); err != nil {
			return fmt.Errorf("its node %s does not start: %s", node, strings.TrimSpace(string(out)))
		}
	}
	return nil
}

// create pulls the node image first (with progress, a cause, and Ctrl-C honoured), then lets kind
// create the cluster; Ctrl-C during the create deletes what was made so far.
func (c *Cluster) create(ctx context.Context) error {
	if !c.Engine.ImagePresent(ctx, c.Image) {
		if err := c.Engine.Pull(ctx, c.Image, c.Out); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.Out, "Creating the kind cluster %q with %s...\n", c.Name, c.Engine.Name)
	done := make(chan error, 1)
	go func() {
		done <- c.provider().Create(c.Name,
			cluster.CreateWithConfigFile(c.ConfigFile),
			cluster.CreateWithKubeconfigPath(c.Kubeconfig),
			cluster.CreateWithDisplayUsage(false),
			cluster.CreateWithDisplaySalutation(false))
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("kind could not create the cluster: %w", withOutput(err))
		}
	case <-ctx.Done():
		fmt.Fprintf(c.Out, "Interrupted: deleting the half-created kind cluster %q.\n", c.Name)
		_ = c.Down()
		// kind's commands have no context, so its create cannot be cancelled: once its nodes are
		// gone it fails at its next command. A command already under way (a `docker run`) may
		// still make a node, so delete once more; `make cluster` or `cluster-down` removes any rest.
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		_ = c.Down()
		return fmt.Errorf("creating the kind cluster was interrupted: %w", ctx.Err())
	}
	return c.waitReady(ctx)
}

// waitReady waits until /readyz answers and every node is Ready. kind's own wait
// (CreateWithWaitForReady) only logs a warning when it runs out, so we wait ourselves.
func (c *Cluster) waitReady(ctx context.Context) error {
	timeout := readyTimeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		err := checkReady(ctx, c.Kubeconfig)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the kind cluster %q is not ready after %s: %w", c.Name, timeout, err)
		case <-time.After(time.Second):
		}
	}
}

// Running is true when the cluster exists and its API answers.
func (c *Cluster) Running(ctx context.Context) bool {
	return c.Status(ctx, io.Discard)
}

// Down deletes the kind cluster (kind has no "stop"): the objects in it are gone afterwards.
// It also removes a half-created cluster, whatever state its nodes are in.
func (c *Cluster) Down() error {
	if !c.Engine.Answers {
		return errors.New(c.Engine.Explain())
	}
	if err := c.provider().Delete(c.Name, c.Kubeconfig); err != nil {
		return fmt.Errorf("kind could not delete the cluster %q: %w", c.Name, withOutput(err))
	}
	return nil
}

// Status says whether the cluster exists, its API answers and its nodes are Ready.
func (c *Cluster) Status(ctx context.Context, out io.Writer) bool {
	if !c.Engine.Answers {
		fmt.Fprintln(out, "  "+c.Engine.Explain())
		return false
	}
	if !c.Exists() {
		fmt.Fprintf(out, "  kind cluster %q: not found\n", c.Name)
		return false
	}
	fmt.Fprintf(out, "  kind cluster %q: exists (%s)\n", c.Name, c.Engine.Name)
	if err := checkReady(ctx, c.Kubeconfig); err != nil {
		fmt.Fprintf(out, "  not ready: %v\n", err)
		return false
	}
	fmt.Fprintln(out, "  API server: answering /readyz; nodes: Ready")
	return true
}

// withOutput adds what a failed command printed to kind's error, as kind's own CLI does
// (logError in sigs.k8s.io/kind/cmd/kind/app/main.go): kind's messages alone stop at
// "exit status 1".
func withOutput(err error) error {
	runErr := kindexec.RunErrorForError(err) // follows kind's own wrapping (pkg/errors' Cause)
	if runErr == nil {
		_ = errors.As(err, &runErr) // and ours (fmt's %w)
	}
	if runErr == nil || len(runErr.Output) == 0 {
		return err
	}
	output := strings.TrimSpace(string(runErr.Output))
	if strings.Contains(output, "unable to apply caps") {
		return fmt.Errorf("%w: %s\n%s", err, output, privilegedRefused)
	}
	return fmt.Errorf("%w: %s", err, output)
}

// privilegedRefused explains runc's "unable to apply caps": kind's nodes run --privileged, and an
// engine whose own capabilities are cut (a sandbox or VM that drops CAP_SYS_RESOURCE) refuses that.
const privilegedRefused = "This engine refuses privileged containers, which kind's nodes need " +
	"(see docs/cluster.md, \"A kind node with no registry\"); use the local cluster: CLUSTER=local make cluster"
