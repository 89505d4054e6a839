package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"workshop.local/scripts/internal/clusterkind"
	"workshop.local/scripts/internal/kindcluster"
	"workshop.local/scripts/internal/localcluster"
	"workshop.local/scripts/versions"
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
	detected  bool // engine holds DetectEngine's answer
}

// open finds the workspace's cluster folder; up and ensure then choose a kind, while down and
// status act on the kind recorded there.
func open() (*workshopCluster, error) {
	root, err := workspace.Root()
	if err != nil {
		return nil, err
	}
	return &workshopCluster{root: root, dir: workspace.ClusterDir(root)}, nil
}

func (w *workshopCluster) typeFile() string { return filepath.Join(w.dir, "cluster-type") }

// choose applies CLUSTER through clusterkind.Decide, the decision make doctor reports too.
func (w *workshopCluster) choose(ctx context.Context) error {
	var err error
	w.kind, w.why, err = clusterkind.Decide(os.Getenv("CLUSTER"), machineProbe{w, ctx})
	return err
}

// machineProbe answers clusterkind's questions by looking at this machine, only when asked.
type machineProbe struct {
	w   *workshopCluster
	ctx context.Context
}

func (p machineProbe) Existing() string                     { return p.w.existingKind(p.ctx) }
func (p machineProbe) Active(kind string) bool              { return p.w.active(p.ctx, kind) }
func (p machineProbe) Engine() kindcluster.Engine           { return p.w.detect(p.ctx) }
func (p machineProbe) ImagePresent() bool                   { return p.w.detect(p.ctx).ImagePresent(p.ctx, nodeImage()) }
func (p machineProbe) Pullable() error                      { return p.w.detect(p.ctx).Pullable(p.ctx, nodeImage()) }
func (machineProbe) LocalInstead(e kindcluster.Engine) bool { return askLocalInstead(e) }

// askLocalInstead asks, on a terminal only, whether to build the local cluster while the engine
// is stopped; make run from a script or CI gets the error and its two ways out instead.
func askLocalInstead(engine kindcluster.Engine) bool {
	if !term.IsTerminal(int(os.Stdin.Fd())) {
		return false
	}
	fmt.Println(engine.Explain() + ".")
	fmt.Print("Build and start the local cluster instead (about 10 minutes the first time)? [y/N] ")
	answer, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(answer)), "y")
}

func (w *workshopCluster) detect(ctx context.Context) kindcluster.Engine {
	if !w.detected {
		w.engine, w.detected = kindcluster.DetectEngine(ctx), true
	}
	return w.engine
}

// existingKind is the kind in .cluster/cluster-type while that cluster still exists: a kind
// cluster someone deleted with kind or docker is forgotten, so auto chooses afresh.
func (w *workshopCluster) existingKind(ctx context.Context) string {
	data, err := os.ReadFile(w.typeFile())
	if err != nil {
		return ""
	}
	kind := strings.TrimSpace(string(data))
	if kind == kindKind && !w.kindCluster(ctx).Exists() {
		return ""
	}
	return kind
}

// active is true when the other kind of cluster would collide with a new one: a local cluster
// that runs (a stopped one keeps only its data), or a kind cluster the engine holds.
func (w *workshopCluster) active(ctx context.Context, kind string) bool {
	if kind == kindKind {
		return w.kindCluster(ctx).Exists()
	}
	d, err := w.localCluster()
	return err == nil && d.Running(ctx)
}

func (w *workshopCluster) driver(ctx context.Context) (clusterDriver, error) {
	if w.kind == kindKind {
		return w.kindCluster(ctx), nil
	}
	return w.localCluster()
}

func (w *workshopCluster) kindCluster(ctx context.Context) *kindcluster.Cluster {
	return &kindcluster.Cluster{
		Name:       workspace.KindClusterName(),
		ConfigFile: filepath.Join(w.root, "kind", "cluster.yaml"),
		Image:      nodeImage(),
		Kubeconfig: workspace.KubeconfigPath(w.dir),
		Engine:     w.detect(ctx),
		Out:        os.Stdout,
	}
}

func (w *workshopCluster) localCluster() (*localcluster.Cluster, error) {
	bins, err := localcluster.DefaultBinaries(w.root)
	if err != nil {
		return nil, err
	}
	return &localcluster.Cluster{Dir: w.dir, Bins: bins, Out: os.Stdout}, nil
}

// nodeImage is the pinned kind node image, or $WORKSHOP_KIND_NODE_IMAGE, which only the tool's
// own tests set (to an image no registry has), so that they never pull the real one.
func nodeImage() string {
	if image := os.Getenv("WORKSHOP_KIND_NODE_IMAGE"); image != "" {
		return image
	}
	return versions.KindNodeImage()
}
