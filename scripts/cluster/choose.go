package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/clusterkind"
	"workshop.local/scripts/internal/kindcluster"
	"workshop.local/scripts/internal/localcluster"
	"workshop.local/scripts/workspace"
)

const (
	kindKind  = clusterkind.Kind
	kindLocal = clusterkind.Local
)

// clusterDriver is what up, down and status need from either kind of cluster.
type clusterDriver interface {
	Up(ctx context.Context) error
	Running(ctx context.Context) bool
	Down() error
	Status(ctx context.Context, out io.Writer) bool
}

// workshopCluster is the cluster of this workspace: its folder, its kind, and the reason the
// kind was chosen (printed so nothing about the choice is a surprise).
type workshopCluster struct {
	root, dir string
	kind      string
	why       string
	engine    kindcluster.Engine
}

func open(ctx context.Context) (*workshopCluster, error) {
	root, err := workspace.Root()
	if err != nil {
		return nil, err
	}
	w := &workshopCluster{root: root, dir: workspace.ClusterDir(root)}
	return w, w.choose(ctx)
}

func (w *workshopCluster) typeFile() string { return filepath.Join(w.dir, "cluster-type") }

// choose applies CLUSTER through clusterkind.Decide, probing the container engine only when
// the decision (or a kind cluster's driver) needs it.
func (w *workshopCluster) choose(ctx context.Context) error {
	wanted := os.Getenv("CLUSTER")
	existing := w.existingKind()
	if clusterkind.NeedsEngine(wanted, existing) {
		w.engine = kindcluster.DetectEngine(ctx)
	}
	var err error
	w.kind, w.why, err = clusterkind.Decide(wanted, existing, w.engine)
	return err
}

// existingKind reads .cluster/cluster-type; "" when this workspace has not made a cluster yet.
func (w *workshopCluster) existingKind() string {
	data, err := os.ReadFile(w.typeFile())
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func (w *workshopCluster) driver() (clusterDriver, error) {
	if w.kind == kindKind {
		return &kindcluster.Cluster{
			ConfigFile: filepath.Join(w.root, "kind", "cluster.yaml"),
			Kubeconfig: workspace.KubeconfigPath(w.dir),
			Engine:     w.engine,
			Out:        os.Stdout,
		}, nil
	}
	bins, err := localcluster.DefaultBinaries(w.root)
	if err != nil {
		return nil, err
	}
	return &localcluster.Cluster{Dir: w.dir, Bins: bins, Out: os.Stdout}, nil
}
