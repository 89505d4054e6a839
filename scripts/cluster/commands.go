package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/localcluster"
	"workshop.local/scripts/versions"
	"workshop.local/scripts/workspace"
)

// up starts or reuses the cluster and tells the learner what they got and how to use it.
func (w *workshopCluster) up(ctx context.Context) error {
	fmt.Printf("Workshop cluster: %s (%s).\n", w.kind, w.why)
	d, err := w.driver(ctx)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		return err
	}
	if w.kind == kindKind {
		return w.upKind(ctx, d)
	}
	if err := d.Up(ctx); err != nil {
		return err
	}
	return w.recordAndPrint()
}

// upKind records the kind before creating, so that `make cluster-down` can delete a cluster
// that a Ctrl-C or a failure left half-created, and holds a lock so that two `make check` at
// once do not both run kind's create.
func (w *workshopCluster) upKind(ctx context.Context, d clusterDriver) error {
	unlock, err := localcluster.LockFile(ctx, filepath.Join(w.dir, "kind.lock"), os.Stdout,
		"another `make` is creating the kind cluster; waiting for it")
	if err != nil {
		return err
	}
	defer unlock()
	if !w.detect(ctx).Answers {
		return d.Up(ctx) // says why kind cannot run; nothing was made, so nothing is recorded
	}
	if err := os.WriteFile(w.typeFile(), []byte(w.kind+"\n"), 0o644); err != nil {
		return err
	}
	if err := d.Up(ctx); err != nil {
		return err
	}
	return w.recordAndPrint()
}

func (w *workshopCluster) recordAndPrint() error {
	if err := os.WriteFile(w.typeFile(), []byte(w.kind+"\n"), 0o644); err != nil {
		return err
	}
	w.printUsage()
	return nil
}

// ensure starts the cluster only if it is not running; when it is, it says so in one line.
func (w *workshopCluster) ensure(ctx context.Context) error {
	d, err := w.driver(ctx)
	if err != nil {
		return err
	}
	if w.recordedKind() == w.kind && d.Running(ctx) {
		fmt.Printf("Workshop cluster: %s, running (kubeconfig %s).\n", w.kind, workspace.KubeconfigPath(w.dir))
		return nil
	}
	return w.up(ctx)
}

// recordedKind is .cluster/cluster-type as written, whether or not that cluster still exists.
func (w *workshopCluster) recordedKind() string {
	data, err := os.ReadFile(w.typeFile())
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func (w *workshopCluster) printUsage() {
	kubeconfig := workspace.KubeconfigPath(w.dir)
	context := workspace.LocalContext
	what := "embedded local cluster, Kubernetes " + versions.Kubernetes() + " built from source"
	if w.kind == kindKind {
		context, what = "kind-"+workspace.KindClusterName(), "kind cluster "+workspace.KindClusterName()
	}
	fmt.Printf("\nReady: %s.\n  context:    %s\n  kubeconfig: %s\n", what, context, kubeconfig)
	fmt.Printf("For kubectl in this shell:\n  export KUBECONFIG=%s\n", kubeconfig)
	if w.kind == kindLocal {
		w.printKubectl()
	}
}

// printKubectl points at the kubectl built with the local cluster: the machine's own may be many
// minors behind the cluster, outside the one-minor skew kubectl supports.
func (w *workshopCluster) printKubectl() {
	bins, err := localcluster.DefaultBinaries(w.root)
	if err != nil {
		return
	}
	kubectl := bins.Path("kubectl")
	if _, err := os.Stat(kubectl); err != nil {
		return
	}
	fmt.Printf("kubectl %s, built with the cluster (yours may be older):\n  alias kubectl='%s'\n", versions.Kubernetes(), kubectl)
}

// down stops the cluster. The local cluster keeps its data for the next `make cluster`;
// a kind cluster is deleted, half-created or not, because kind has no stop.
func (w *workshopCluster) down(ctx context.Context) error {
	recorded := w.recordedKind()
	if recorded == "" {
		fmt.Println("No workshop cluster has been started in this workspace; nothing to stop.")
		return nil
	}
	w.kind = recorded
	d, err := w.driver(ctx)
	if err != nil {
		return err
	}
	if err := d.Down(); err != nil {
		return err
	}
	if w.kind == kindKind {
		_ = os.Remove(w.typeFile())
		fmt.Println("Deleted the kind cluster " + workspace.KindClusterName() + " and everything in it.")
		return nil
	}
	fmt.Println("Stopped the local cluster; its ports are free. Its data stays in " + w.dir + " for the next `make cluster`.")
	return nil
}

// errNotRunning makes `make cluster-status` exit non-zero when the cluster is not up, so
// scripts can test it; the printed lines say what is wrong.
var errNotRunning = errors.New("the workshop cluster is not running: start it with `make cluster`")

func (w *workshopCluster) status(ctx context.Context) error {
	recorded := w.recordedKind()
	if recorded == "" {
		return errors.New("no workshop cluster has been started in this workspace: start one with `make cluster`")
	}
	w.kind = recorded
	fmt.Printf("Workshop cluster: %s (kubeconfig %s)\n", w.kind, workspace.KubeconfigPath(w.dir))
	d, err := w.driver(ctx)
	if err != nil {
		return err
	}
	if !d.Status(ctx, os.Stdout) {
		return errNotRunning
	}
	fmt.Println("Running.")
	return nil
}

// pull fetches the kind node image now, with progress, so that a later `make cluster` needs no
// network; it says so when the image is here already.
func (w *workshopCluster) pull(ctx context.Context) error {
	engine, image := w.detect(ctx), nodeImage()
	if !engine.Answers {
		return errors.New(engine.Explain())
	}
	if engine.ImagePresent(ctx, image) {
		fmt.Printf("%s already holds the kind node image %s.\n", engine.Name, image)
		return nil
	}
	if err := engine.Pull(ctx, image, os.Stdout); err != nil {
		return err
	}
	if w.recordedKind() == kindLocal {
		fmt.Println("Pulled. This workspace has a local cluster, which auto keeps using; to switch: `make cluster-down`, then `CLUSTER=kind make cluster`.")
		return nil
	}
	fmt.Println("Pulled. `make cluster` will use kind now.")
	return nil
}

// envtestAssets prints the folder to use as KUBEBUILDER_ASSETS, and nothing else on stdout, so
// `export KUBEBUILDER_ASSETS=$(make -s envtest-assets)` works; building and the hint go to stderr.
func (w *workshopCluster) envtestAssets(ctx context.Context) error {
	bins, err := localcluster.DefaultBinaries(w.root)
	if err != nil {
		return err
	}
	dir, err := bins.EnsureEnvtest(ctx, os.Stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "etcd, kube-apiserver and kubectl (Kubernetes %s) for controller-runtime's envtest:\n"+
		"  export KUBEBUILDER_ASSETS=%s\n", versions.Kubernetes(), dir)
	fmt.Println(dir)
	return nil
}
