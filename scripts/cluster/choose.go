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

	"workshop.local/scripts/internal/kindcluster"
	"workshop.local/scripts/internal/localcluster"
	"workshop.local/scripts/versions"
	"workshop.local/scripts/workspace"
)

// Kinds of cluster. The chosen kind is remembered in .cluster/cluster-type, so that status and
// down act on what up started, and auto keeps reusing it while that cluster exists.
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

// choose applies CLUSTER: an explicit kind wins unless the other kind is running; auto reuses
// the cluster this workspace has, else picks kind when it can really start, else local.
func (w *workshopCluster) choose(ctx context.Context) error {
	wanted := strings.ToLower(os.Getenv("CLUSTER"))
	switch wanted {
	case "", "auto":
		return w.chooseAuto(ctx)
	case kindKind, kindLocal:
		if other := w.existingKind(ctx); other != "" && other != wanted && w.active(ctx, other) {
			return fmt.Errorf("this workspace's %s cluster is running; stop it with `make cluster-down` before asking for CLUSTER=%s", other, wanted)
		}
		w.kind, w.why = wanted, "CLUSTER="+wanted
		return nil
	default:
		return fmt.Errorf("CLUSTER=%q is not a kind of cluster: use auto, kind or local", wanted)
	}
}

// chooseAuto: the cluster this workspace already has; else kind when an engine answers and the
// pinned node image is here or can be pulled; else local, saying why in one sentence. Docker
// installed but stopped is an error, not a silent 10-minute build of the local cluster.
func (w *workshopCluster) chooseAuto(ctx context.Context) error {
	if existing := w.existingKind(ctx); existing != "" {
		w.kind, w.why = existing, "this workspace's cluster is a "+existing+" cluster"
		return nil
	}
	engine := w.detect(ctx)
	image := nodeImage()
	switch {
	case engine.Answers && engine.ImagePresent(ctx, image):
		w.kind, w.why = kindKind, engine.Name+" answers and holds the kind node image"
	case engine.Answers:
		if err := engine.Pullable(ctx, image); err != nil {
			w.kind = kindLocal
			w.why = fmt.Sprintf("%s answers but the kind node image cannot be pulled: %v; so the local cluster runs instead. "+
				"For kind, pull it with `make kind-pull`; CLUSTER=local makes this choice silent", engine.Name, err)
			return nil
		}
		w.kind, w.why = kindKind, engine.Name+" answers and the kind node image can be pulled"
	case engine.Installed:
		if askLocalInstead(engine) {
			w.kind, w.why = kindLocal, "you chose it while "+engine.Name+" is stopped"
			return nil
		}
		return fmt.Errorf("%s (it builds Kubernetes from source, about 10 minutes the first time)", engine.Explain())
	default:
		w.kind, w.why = kindLocal, "no container engine (docker, podman or nerdctl) is installed, so the local cluster runs; CLUSTER=local makes this choice silent"
	}
	return nil
}

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
// own tests set (to an image no registry has), so that they never pull 400 MB.
func nodeImage() string {
	if image := os.Getenv("WORKSHOP_KIND_NODE_IMAGE"); image != "" {
		return image
	}
	return versions.KindNodeImage()
}
