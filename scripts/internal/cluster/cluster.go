package cluster

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"workshop.local/scripts/internal/cluster/kind"
	"workshop.local/scripts/versions"
	"workshop.local/scripts/workspace"
)

// Cluster is the workshop cluster of one workspace: its folder, what CLUSTER asks for, the
// runtime chosen (or recorded) and the reason it was chosen (printed, so nothing about the
// choice is a surprise).
type Cluster struct {
	root, dir string
	wanted    string  // CLUSTER: auto, or a runtime's name
	runtime   Runtime // after choose (or the recorded one, for down and status)
	why       string
	out       io.Writer
	engine    kind.Engine
	detected  bool // engine holds DetectEngine's answer
}

// Open finds the workspace's cluster folder (workspace.ClusterDir); wanted is CLUSTER (the
// tool's --cluster flag). Up and Ensure then choose a runtime; Down and Status act on the one
// recorded there.
func Open(out io.Writer, wanted string) (*Cluster, error) {
	root, err := workspace.Root()
	if err != nil {
		return nil, err
	}
	return &Cluster{root: root, dir: workspace.ClusterDir(root), wanted: wanted, out: out}, nil
}

// Kubeconfig is the one kubeconfig the cluster's runtime writes, whichever it is.
func (c *Cluster) Kubeconfig() string { return workspace.KubeconfigPath(c.dir) }

// choose applies CLUSTER through Decide, the decision make doctor reports too, and makes the
// chosen runtime: from here on only its methods run.
func (c *Cluster) choose(ctx context.Context) error {
	name, why, err := Decide(c.wanted, machineProbe{c, ctx})
	if err != nil {
		return err
	}
	c.why = why
	c.runtime, err = c.runtimeNamed(ctx, name)
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
	r, err := c.runtimeNamed(ctx, Recorded(c.dir))
	if err != nil || !r.Exists(ctx) {
		return ""
	}
	return r.Name()
}

// active is true when a cluster of that runtime would collide with a new one of another.
func (c *Cluster) active(ctx context.Context, name string) bool {
	r, err := c.runtimeNamed(ctx, name)
	return err == nil && r.Active(ctx)
}

// recorded makes the runtime recorded in the cluster folder, for down and status.
func (c *Cluster) recorded(ctx context.Context) (Runtime, error) {
	var err error
	c.runtime, err = c.runtimeNamed(ctx, Recorded(c.dir))
	return c.runtime, err
}

// NodeImage is the pinned kind node image, or $WORKSHOP_KIND_NODE_IMAGE, which only the tool's
// own tests set (to an image no registry has), so that they never pull the real one.
func NodeImage() string {
	if image := os.Getenv("WORKSHOP_KIND_NODE_IMAGE"); image != "" {
		return image
	}
	return versions.KindNodeImage()
}
