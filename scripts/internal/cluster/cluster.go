package cluster

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"workshop.local/scripts/internal/cluster/kind"
	"workshop.local/scripts/internal/cluster/local"
	"workshop.local/scripts/versions"
	"workshop.local/scripts/workspace"
)

// Cluster is the workshop cluster of one workspace: its folder, its runtime, and the reason that
// runtime was chosen (printed, so nothing about the choice is a surprise).
type Cluster struct {
	root, dir string
	runtime   string
	why       string
	out       io.Writer
	engine    kind.Engine
	detected  bool // engine holds DetectEngine's answer
}

// Open finds the workspace's cluster folder (workspace.ClusterDir). Up and Ensure then choose a
// runtime; Down and Status act on the one recorded there.
func Open(out io.Writer) (*Cluster, error) {
	root, err := workspace.Root()
	if err != nil {
		return nil, err
	}
	return &Cluster{root: root, dir: workspace.ClusterDir(root), out: out}, nil
}

// Kubeconfig is the one kubeconfig the cluster's runtime writes, whichever it is.
func (c *Cluster) Kubeconfig() string { return workspace.KubeconfigPath(c.dir) }

// choose applies CLUSTER through Decide, the decision make doctor reports too.
func (c *Cluster) choose(ctx context.Context) error {
	var err error
	c.runtime, c.why, err = Decide(os.Getenv("CLUSTER"), machineProbe{c, ctx})
	return err
}

// machineProbe answers Decide's questions by looking at this machine, only when asked.
type machineProbe struct {
	c   *Cluster
	ctx context.Context
}

func (p machineProbe) Existing() string                { return p.c.existing(p.ctx) }
func (p machineProbe) Active(runtime string) bool      { return p.c.active(p.ctx, runtime) }
func (p machineProbe) Engine() kind.Engine             { return p.c.detect(p.ctx) }
func (p machineProbe) ImagePresent() bool              { return p.c.detect(p.ctx).ImagePresent(p.ctx, NodeImage()) }
func (p machineProbe) Pullable() error                 { return p.c.detect(p.ctx).Pullable(p.ctx, NodeImage()) }
func (p machineProbe) LocalInstead(e kind.Engine) bool { return askLocalInstead(p.c.out, e) }

// askLocalInstead asks, on a terminal only, whether to build the local cluster while the engine
// is stopped; make run from a script or CI gets the error and its two ways out instead.
func askLocalInstead(out io.Writer, engine kind.Engine) bool {
	if !term.IsTerminal(int(os.Stdin.Fd())) {
		return false
	}
	fmt.Fprintln(out, engine.Explain()+".")
	fmt.Fprint(out, "Build and start the local cluster instead (about 10 minutes the first time)? [y/N] ")
	answer, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(answer)), "y")
}

func (c *Cluster) detect(ctx context.Context) kind.Engine {
	if !c.detected {
		c.engine, c.detected = kind.DetectEngine(ctx), true
	}
	return c.engine
}

// existing is the recorded runtime while that cluster still exists: a kind cluster someone
// deleted with kind or docker is forgotten, so auto chooses afresh.
func (c *Cluster) existing(ctx context.Context) string {
	recorded := Recorded(c.dir)
	if recorded == Kind && !c.kindRuntime(ctx).Exists() {
		return ""
	}
	return recorded
}

// active is true when the other runtime would collide with a new cluster: a local cluster that
// runs (a stopped one keeps only its data), or a kind cluster the engine holds.
func (c *Cluster) active(ctx context.Context, runtime string) bool {
	if runtime == Kind {
		return c.kindRuntime(ctx).Exists()
	}
	l, err := c.localRuntime()
	return err == nil && l.Running(ctx)
}

// driver is the chosen (or recorded) runtime's implementation.
func (c *Cluster) driver(ctx context.Context) (Runtime, error) {
	if c.runtime == Kind {
		return c.kindRuntime(ctx), nil
	}
	return c.localRuntime()
}

func (c *Cluster) kindRuntime(ctx context.Context) *kind.Cluster {
	return &kind.Cluster{
		Name:       workspace.KindClusterName(),
		ConfigFile: filepath.Join(c.root, "kind", "cluster.yaml"),
		Image:      NodeImage(),
		Kubeconfig: c.Kubeconfig(),
		Engine:     c.detect(ctx),
		Out:        c.out,
	}
}

func (c *Cluster) localRuntime() (*local.Cluster, error) {
	bins, err := local.DefaultBinaries(c.root)
	if err != nil {
		return nil, err
	}
	return &local.Cluster{Dir: c.dir, Bins: bins, Out: c.out}, nil
}

// NodeImage is the pinned kind node image, or $WORKSHOP_KIND_NODE_IMAGE, which only the tool's
// own tests set (to an image no registry has), so that they never pull the real one.
func NodeImage() string {
	if image := os.Getenv("WORKSHOP_KIND_NODE_IMAGE"); image != "" {
		return image
	}
	return versions.KindNodeImage()
}
