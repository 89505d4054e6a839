// Package local runs the workshop's embedded cluster: the real upstream etcd,
// kube-apiserver, kube-controller-manager and kube-scheduler, and one hollow node (a kubelet with
// kubemark's fake runtime), built from source, started on 127.0.0.1 with TLS, client
// certificates and RBAC, and kept under .cluster/.
package local

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/internal/cluster/lock"
)

// Cluster is one local cluster, identified by its folder (normally <workspace>/.cluster).
type Cluster struct {
	Dir  string            // kubeconfig, pki/, data/, logs/, local/ (ports, pid files, component files)
	Bins binaries.Binaries // where the built programs live (cluster/binaries)
	Out  io.Writer         // progress and messages for the learner
}

// How long each component may take to get ready before we report it failed. Measured starts on
// a 2-core machine take a few seconds; the margins cover a busy laptop.
var readyTimeouts = map[string]time.Duration{
	"etcd": 30 * time.Second, "kube-apiserver": 90 * time.Second,
	"kube-controller-manager": 60 * time.Second, "kube-scheduler": 60 * time.Second,
	"hollow-node": 90 * time.Second,
}

func (c *Cluster) path(parts ...string) string {
	return filepath.Join(append([]string{c.Dir}, parts...)...)
}

func (c *Cluster) process(name string) process {
	return process{name: name, runDir: c.path("local", "run"), logPath: c.path("logs", name+".log")}
}

// Up starts the cluster, or reuses it when every component runs and the API answers. Anything
// half-running (after a crash, a kill -9 or a reboot) is stopped and started again; etcd's data
// stays, so the learner's objects survive.
func (c *Cluster) Up(ctx context.Context) error {
	if err := c.makeDirs(); err != nil {
		return err
	}
	unlock, err := lock.File(ctx, c.path("local", "up.lock"), c.Out,
		"another `make cluster` is starting this cluster; waiting for it to finish")
	if err != nil {
		return err
	}
	defer unlock()
	why := c.notRunning(ctx)
	if why == "" {
		fmt.Fprintln(c.Out, "The local cluster is already running; reusing it.")
		return nil
	}
	if c.savedPorts() != (Ports{}) { // it ran here before: say why it starts again
		fmt.Fprintf(c.Out, "Restarting the local cluster: %s.\n", why)
	}
	if err := c.stopAll(); err != nil {
		return err
	}
	// Ports first: a taken port should be reported before a build that may take minutes.
	ports, err := choosePorts(c.path("local", "ports.json"), c.Out)
	if err != nil {
		return err
	}
	if err := c.Bins.Ensure(ctx, c.Out); err != nil {
		return err
	}
	if err := c.start(ctx, ports); err != nil {
		// A half-started cluster serves no one: stop what did start, so nothing is left running
		// (`make cluster-down` knows only a cluster that came up). Its logs stay in logs/.
		_ = c.stopAll()
		return err
	}
	return nil
}

func (c *Cluster) makeDirs() error {
	for _, dir := range []string{"logs", "pki", "data", "local/run"} {
		if err := os.MkdirAll(c.path(dir), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", c.path(dir), err)
		}
	}
	// kubemark's hollow node used local/node-tmp, readable by all; its successor is local/node.
	_ = os.RemoveAll(c.path("local", "node-tmp"))
	return os.Chmod(c.path("pki"), 0o700)
}

// start launches etcd and the API server one after the other, then the controller-manager, the
// scheduler and the hollow node together: each of those only needs the API server and retries
// until it answers. Started one by one, each waiting for the one before, the node was Ready 0.2
// to 0.3 s later (docs/benchmarks.md). Starting the API server as soon as etcd's port opened was
// slower here, with the two sharing 2 cores. Components are waited for in start order, so a
// failure names the component that failed rather than one that only noticed.
func (c *Cluster) start(ctx context.Context, ports Ports) error {
	if err := ensurePKI(c.path("pki")); err != nil {
		return fmt.Errorf("create the cluster's certificates: %w", err)
	}
	if err := c.writeKubeconfigs(ports); err != nil {
		return err
	}
	// The hollow node makes a fresh root folder per start; old ones are of no use. Its sockets
	// live there, so only the learner may open it.
	_ = os.RemoveAll(c.nodeDir())
	if err := os.MkdirAll(c.nodeDir(), 0o700); err != nil {
		return err
	}
	comps := c.components(ports)
	etcd, apiServer, apiClients := comps[0], comps[1], comps[2:] // the order components() gives
	begin := time.Now()
	for _, comp := range []component{etcd, apiServer} {
		if err := c.launch(comp); err != nil {
			return err
		}
		if err := c.awaitReady(ctx, ports, begin, begin, comp); err != nil {
			return err
		}
	}
	// The API server calls the kubelet with its own client certificate: grant that before the
	// node starts, so the first `kubectl logs` works.
	if err := c.grantKubeletAccess(ctx); err != nil {
		return err
	}
	started := time.Now()
	if err := c.launch(apiClients...); err != nil {
		return err
	}
	return c.awaitReady(ctx, ports, begin, started, apiClients...)
}

// launch starts the components' processes without waiting for them.
func (c *Cluster) launch(comps ...component) error {
	for _, comp := range comps {
		if err := c.process(comp.name).start(comp.bin, comp.args, comp.env); err != nil {
			return err
		}
	}
	return nil
}

// awaitReady waits for each component in turn and says when it got ready, counted from begin.
// started is when the components were launched.
func (c *Cluster) awaitReady(ctx context.Context, ports Ports, begin, started time.Time, comps ...component) error {
	for _, comp := range comps {
		proc := c.process(comp.name)
		if err := c.waitReady(ctx, proc, c.readyCheck(comp.name, ports, started), readyTimeouts[comp.name]); err != nil {
			return startFailed(err)
		}
		fmt.Fprintf(c.Out, "  %-24s ready after %.1fs\n", comp.name, time.Since(begin).Seconds())
	}
	return nil
}

func startFailed(err error) error {
	return fmt.Errorf("%w\nThe components that had started are stopped again; the data is kept. Fix the cause and run `make cluster` again", err)
}

// Running reports whether every component runs, as this workspace would start it (same
// program, flags and environment), and the API server answers /readyz. A cluster started by an
// older version of the workspace is not running in this sense, so Up restarts it.
func (c *Cluster) Running(ctx context.Context) bool { return c.notRunning(ctx) == "" }

// notRunning says in a few words why the cluster is not running as this workspace would start
// it, or "" when it is: a component down, running twice, running without its pid file (it would
// be orphaned), started with other flags, or an API server that does not answer.
func (c *Cluster) notRunning(ctx context.Context) string {
	for _, comp := range c.components(c.savedPorts()) {
		proc := c.process(comp.name)
		pid, all := proc.pid(), c.running(comp)
		switch {
		case pid == 0 && len(all) > 0:
			return fmt.Sprintf("%s runs (pid %d) but its pid file does not name it", comp.name, all[0])
		case pid == 0:
			return comp.name + " is not running"
		case len(all) > 1:
			return fmt.Sprintf("%s runs %d times", comp.name, len(all))
		case proc.startedWith() != fingerprint(comp.bin, comp.args, comp.env):
			return comp.name + " was started with other flags (by an older workspace)"
		}
	}
	if err := c.apiReady(ctx); err != nil {
		return "the API server does not answer"
	}
	return ""
}

// savedPorts are the ports the cluster was last started on (zero when it never was).
func (c *Cluster) savedPorts() Ports {
	var p Ports
	if data, err := os.ReadFile(c.path("local", "ports.json")); err == nil {
		_ = json.Unmarshal(data, &p)
	}
	return p
}

// Down stops the components in reverse order (hollow node first, etcd last), so no component
// loses its upstream while it still runs. The data stays for the next Up.
func (c *Cluster) Down() error {
	return c.stopAll()
}

func (c *Cluster) stopAll() error {
	comps := c.components(Ports{})
	for i := len(comps) - 1; i >= 0; i-- {
		if err := c.process(comps[i].name).stop(10 * time.Second); err != nil {
			return err
		}
		if err := c.stopStrays(comps[i]); err != nil {
			return err
		}
	}
	return nil
}

// Status writes one line per component and whether the API answers and the node is Ready.
// It returns true when the whole cluster is up.
func (c *Cluster) Status(ctx context.Context, out io.Writer) bool {
	var down []string
	for _, comp := range c.components(Ports{}) {
		pid, all := c.process(comp.name).pid(), c.running(comp)
		if pid == 0 || len(all) > 1 {
			down = append(down, comp.name)
		}
		fmt.Fprintln(out, "  "+comp.describe(pid, all))
	}
	up := len(down) == 0
	if !up {
		defer fmt.Fprintf(out, "  Not as it should be: %s. `make cluster` starts the cluster again, data kept.\n", strings.Join(down, ", "))
	}
	if err := c.apiReady(ctx); err != nil {
		fmt.Fprintf(out, "  API server: not answering (%v)\n", shortErr(err))
		return false
	}
	fmt.Fprintln(out, "  API server: answering /readyz")
	if err := c.nodeReady(ctx, time.Time{}); err != nil {
		fmt.Fprintf(out, "  node: %v\n", shortErr(err))
		return false
	}
	fmt.Fprintln(out, "  node "+NodeName+": Ready")
	return up
}

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}
