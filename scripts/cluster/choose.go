package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/kindcluster"
	"workshop.local/scripts/internal/localcluster"
	"workshop.local/scripts/workspace"
)

// Kinds of cluster. The chosen kind is remembered in .cluster/cluster-type, so that status and
// down act on what up started, and auto keeps reusing it.
const (
	kindKind  = "kind"
	kindLocal = "local"
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

// choose applies CLUSTER: an explicit kind wins (unless the other kind is already there),
// auto reuses the kind already in .cluster, else picks kind when an engine answers.
func (w *workshopCluster) choose(ctx context.Context) error {
	wanted := strings.ToLower(os.Getenv("CLUSTER"))
	existing := w.existingKind()
	switch wanted {
	case "", "auto":
		return w.chooseAuto(ctx, existing)
	case kindKind, kindLocal:
		if existing != "" && existing != wanted {
			return fmt.Errorf("this workspace already has a %s cluster; stop it with `make cluster-down` before asking for CLUSTER=%s", existing, wanted)
		}
		w.kind, w.why = wanted, "CLUSTER="+wanted
		if wanted == kindKind {
			w.engine = kindcluster.DetectEngine(ctx)
		}
		return nil
	default:
		return fmt.Errorf("CLUSTER=%q is not a kind of cluster: use auto, kind or local", wanted)
	}
}

func (w *workshopCluster) chooseAuto(ctx context.Context, existing string) error {
	w.engine = kindcluster.DetectEngine(ctx)
	switch {
	case existing != "":
		w.kind, w.why = existing, "this workspace's cluster is a "+existing+" cluster"
	case w.engine.Answers:
		w.kind, w.why = kindKind, w.engine.Name+" answers, so kind can run"
	default:
		w.kind, w.why = kindLocal, "no container engine answers ("+w.engine.Detail+"), so the embedded local cluster runs instead"
	}
	return nil
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
