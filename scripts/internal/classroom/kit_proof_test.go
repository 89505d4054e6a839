package classroom

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/internal/cluster/lock"
	"workshop.local/scripts/internal/text"
	"workshop.local/scripts/workspace"
)

// TestKitProofOfflineClone is issue 28's automated form of the kit's proof in
// docs/instructors.md: a kit written by make kit's own code installs into a fresh clone that can
// reach no module proxy, and there the clone's own local cluster, started from the kit's
// binaries, passes lesson 01's specs with the solution overlaid.
//
// What is cut off, and what is shared:
//   - GOPROXY=off and an empty module cache (GOMODCACHE): every module must come from the kit
//     (make kit-install's bootstrap build, then .kit/env.mk's GOPROXY=file://<clone>/.kit/modules).
//   - HTTP(S)_PROXY point at a loopback listener that answers nothing: any request that tries the
//     network (a checksum database, a VCS fetch, a proxy) is recorded and fails the test.
//   - WORKSHOP_CACHE (the cluster binary cache) is empty but for what make kit-install copies in.
//   - The Go build cache (GOCACHE) stays the machine's. It holds compiled packages only, never a
//     module's source: go still loads every package from the module cache, so a module missing
//     from the kit fails the build even when every compile is a cache hit. A cold build cache
//     would add 4 to 5 minutes of compiling on 2 cores (docs/benchmarks.md) and prove nothing
//     more about the network. But sharing GOCACHE alone saves nothing: without -trimpath the
//     compiler's cache key includes each package's folder (cmd/go/internal/work buildActionID,
//     "dir %s"), so packages under a scratch GOMODCACHE are compiled again. Where the test may
//     create a mount namespace (root, as in CI), each command in the clone runs in one of its own
//     in which the empty scratch module cache is mounted over the machine's module cache folder:
//     the same path, other contents, so the machine's compiled module packages are found. Where
//     it may not, the scratch cache keeps its own path, and the clone and that cache live at the
//     same paths run after run (proofBase), so only a machine's first run compiles everything.
//
// The clone's cluster is its own: its folder is <clone>/.cluster, its programs are the copies in
// the scratch binary cache and its ports are picked free, so it never touches the workspace's own
// cluster (which the test checks before and after) and does not clash with it.
func TestKitProofOfflineClone(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the kit proof writes a kit, installs it in a fresh clone and starts a second cluster (a few minutes)")
	}
	for _, tool := range []string{"git", "make", "go", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the kit proof runs %s, which is not on PATH", tool)
		}
	}
	root, err := workspace.Root()
	if err != nil {
		t.Fatal(err)
	}
	// make kit packs this machine's cluster binaries. make test has them (it starts the local
	// cluster before the tooling's tests); a maintainer on kind may not: skipped there, never in CI.
	machineBins, err := binaries.Default(root)
	if err != nil {
		t.Fatal(err)
	}
	if missing := machineBins.Missing(); len(missing) > 0 {
		msg := fmt.Sprintf("the local cluster's binaries are not built in %s (%s): make kit needs them (make prepare, or CLUSTER=local make cluster)",
			machineBins.Dir, strings.Join(missing, ", "))
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}

	// Bounded: end before go test's own timeout (10 min by default) kills the binary, so the
	// cleanups below still stop the clone's cluster.
	deadline := time.Now().Add(12 * time.Minute)
	if d, ok := t.Deadline(); ok && d.Add(-45*time.Second).Before(deadline) {
		deadline = d.Add(-45 * time.Second)
	}
	ctx, cancel := context.WithDeadline(t.Context(), deadline)
	defer cancel()

	// One proof at a time per machine user: the paths are fixed (see above), and a second run
	// would stop the first one's cluster as stale.
	base := proofBase()
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	unlock, err := lock.File(ctx, filepath.Join(base, "lock"), tWriter{t}, "another kit proof is running on this machine; waiting for it")
	if err != nil {
		t.Fatalf("step 0 (take the proof's lock): %v", err)
	}
	t.Cleanup(unlock) // registered first: released last, after everything below is removed
	p := &kitProof{
		t: t, root: root, base: base,
		clone:    filepath.Join(base, "clone"),
		modCache: filepath.Join(base, "modcache"),
		binCache: filepath.Join(base, "bincache"),
		logs:     t.TempDir(),
	}
	p.cloneBins = binaries.Binaries{Dir: filepath.Join(p.binCache, filepath.Base(machineBins.Dir)), BuilderDir: binaries.BuilderDir(p.clone)}
	// A run that go test's timeout killed left its clone, and maybe its cluster, behind.
	p.removeAll()
	t.Cleanup(p.removeAll)
	mainCluster := clusterProgramPids(workspace.ClusterDir(root), machineBins.Dir)
	t.Cleanup(func() { p.checkUntouched(workspace.ClusterDir(root), machineBins.Dir, mainCluster) })

	// Step 1: the kit, by the code make kit runs, from this machine's module cache (and its
	// proxy for anything that cache lacks, as on an instructor's laptop).
	kit := filepath.Join(t.TempDir(), "workshop-kit.tar.gz")
	p.step("1. make kit (classroom.MakeKit)", func() (string, error) {
		out, err := stdoutToFile(filepath.Join(p.logs, "kit.log"), func() error {
			ok, err := MakeKit(ctx, root, kit)
			if err == nil && !ok {
				err = fmt.Errorf("MakeKit reported failure")
			}
			return err
		})
		if err == nil { // its own timings: the replay of the downloads, then the writing
			t.Log(strings.TrimSpace(out))
		}
		return out, err
	})

	// Step 2: a fresh clone, with only what is committed, as a learner gets it.
	p.step("2. git clone", func() (string, error) {
		return p.run(ctx, base, "git", "clone", "--quiet", root, p.clone)
	})

	// Step 3: offline, and proven to be: without the kit the clone cannot even list the tool's
	// packages. Otherwise the proof would be vacuous (a module cache or vendor folder in reach).
	proxy := startDeadProxy(t)
	if err := os.MkdirAll(p.modCache, 0o755); err != nil {
		t.Fatal(err)
	}
	p.mountOver = p.canMountOver(ctx, workspace.GoEnv("GOMODCACHE"))
	if p.mountOver == "" {
		t.Logf("no mount namespace here: the clone's module cache is %s, and its packages compile afresh the first time", p.modCache)
	}
	p.env = p.offlineEnv(proxy.url())
	p.step("3a. without the kit, the clone cannot get a module", func() (string, error) {
		out, err := p.run(ctx, p.clone, "go", "list", "-deps", "./scripts/workshop")
		if err == nil {
			return out, fmt.Errorf("go list succeeded with GOPROXY=off and an empty module cache: the environment is not offline")
		}
		return out, nil
	})
	t.Cleanup(p.stopCloneCluster) // from here on something may start the clone's cluster
	p.step("3b. make kit-install", func() (string, error) {
		return p.run(ctx, p.clone, "make", "kit-install", "KIT="+kit)
	})
	// The kit's programs must be the ones this clone runs; if not (the kit made from a workspace
	// whose cluster builder sources differ from the clone's), the clone would build its cluster
	// from source for 10 minutes: say so now.
	if missing := p.cloneBins.Missing(); len(missing) > 0 {
		t.Fatalf("after make kit-install, the clone's cluster programs are not in %s (%s): the kit's binaries were built from other cluster builder sources than the clone's (uncommitted changes under %s?)",
			p.cloneBins.Dir, strings.Join(missing, ", "), binaries.BuilderDir(root))
	}

	// Step 4: the clone's own local cluster from the kit's binaries, and lesson 01's specs with
	// its solution overlaid (the maintainers' make ginkgo SOLUTION=1), all through the clone's
	// Makefile, which now includes .kit/env.mk.
	p.step("4a. make cluster (CLUSTER=local, the clone's own)", func() (string, error) {
		return p.run(ctx, p.clone, "make", "cluster")
	})
	ran := regexp.MustCompile(`Ran (\d+) of (\d+) Specs`)
	p.step("4b. make ginkgo LESSON=01 SOLUTION=1", func() (string, error) {
		out, err := p.run(ctx, p.clone, "make", "ginkgo", "LESSON=01", "SOLUTION=1", "ARGS=--no-color")
		if err != nil {
			return out, err
		}
		m := ran.FindStringSubmatch(out)
		if m == nil || m[1] == "0" || !strings.Contains(out, "SUCCESS!") {
			return out, fmt.Errorf("no \"Ran N of M Specs\" with N > 0 and SUCCESS! in Ginkgo's output")
		}
		t.Logf("lesson 01 with its solution: ran %s of %s specs, all passed", m[1], m[2])
		return out, nil
	})

	// The modules did come through the empty module cache, from the kit, and nothing knocked on
	// the dead proxy.
	downloaded, _ := filepath.Glob(filepath.Join(p.modCache, "cache", "download", "*"))
	if len(downloaded) == 0 {
		t.Errorf("the scratch module cache %s is empty: the clone's go commands did not use it", p.modCache)
	}
	if hits := proxy.hits(); len(hits) > 0 {
		t.Errorf("%d request(s) tried the network through HTTP(S)_PROXY:\n  %s", len(hits), strings.Join(hits, "\n  "))
	}
	t.Logf("kit proof: %s", strings.Join(p.timings, ", "))
}

// proofBase is where the proof keeps its clone, module cache and binary cache: the same paths on
// every run, so that the build cache recognizes the packages compiled last time.
func proofBase() string {
	return filepath.Join(os.TempDir(), "workshop-kit-proof-"+strconv.Itoa(os.Getuid()))
}

type kitProof struct {
	t                               *testing.T
	root, base                      string
	clone, modCache, binCache, logs string
	cloneBins                       binaries.Binaries
	mountOver                       string // the machine's module cache, where the clone's commands see modCache; "" when they cannot
	env                             []string
	timings                         []string
}

// step runs one step, failing the test with the step's name, its error and its output's tail.
func (p *kitProof) step(name string, run func() (string, error)) {
	p.t.Helper()
	start := time.Now()
	out, err := run()
	took := time.Since(start).Round(100 * time.Millisecond)
	p.timings = append(p.timings, fmt.Sprintf("%s %s", strings.SplitN(name, " ", 2)[0], took))
	if err != nil {
		p.t.Fatalf("step %s failed after %s: %v\n%s", name, took, err, text.Tail(out, 40, "    | "))
	}
	p.t.Logf("step %s: %s", name, took)
}

// run runs a command in dir with the proof's environment (once set), in a process group of
// its own that the context's end kills whole (make, the tool, go and its compilers). The
// cluster's programs start in sessions of their own and are stopped by stopCloneCluster.
func (p *kitProof) run(ctx context.Context, dir, name string, args ...string) (string, error) {
	shown := fmt.Sprintf("$ %s %s   (in %s)\n", name, strings.Join(args, " "), dir)
	if p.mountOver != "" && p.env != nil {
		args = append([]string{"--mount", "--propagation", "private", "--", "sh", "-c", bindThenExec, "sh", p.modCache, p.mountOver, name}, args...)
		name = "unshare"
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if p.env != nil {
		cmd.Env = p.env
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		err = fmt.Errorf("%v (the proof's time is up: %v)", err, ctx.Err())
	}
	return shown + string(out), err
}

// bindThenExec, run by sh in a new mount namespace with the arguments scratch, target, command...,
// mounts scratch over target, for this namespace only (private propagation: the machine's own
// mounts never see it), then runs the command.
const bindThenExec = `mount --bind "$1" "$2" && shift 2 && exec "$@"`

// canMountOver says whether commands can run in a mount namespace of their own with the scratch
// module cache mounted over the machine's (root, or wherever unshare may do it), and returns
// the machine's module cache folder if so. The scratch cache must look empty there.
func (p *kitProof) canMountOver(ctx context.Context, machineModCache string) string {
	if machineModCache == "" || runtime.GOOS != "linux" {
		return ""
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		return ""
	}
	cmd := exec.CommandContext(ctx, "unshare", "--mount", "--propagation", "private", "--", "sh", "-c", bindThenExec, "sh", p.modCache, machineModCache, "ls", "-A", machineModCache)
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		return ""
	}
	return machineModCache
}

// offlineEnv is the machine's environment with no way to the network for go, and nothing that
// could point the clone's commands at the workspace's own cluster, caches or make variables.
func (p *kitProof) offlineEnv(deadProxy string) []string {
	drop := map[string]bool{}
	for _, k := range []string{
		"GOPROXY", "GOSUMDB", "GOMODCACHE", "GOTOOLCHAIN", "GONOPROXY", "GONOSUMDB", "GOPRIVATE", "GOINSECURE", "GOVCS",
		"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
		"WORKSHOP_CLUSTER_DIR", "WORKSHOP_RUNNING_CLUSTER", "WORKSHOP_API_PORT", "WORKSHOP_CACHE", "KUBECONFIG", "CLUSTER",
		"MAKEFLAGS", "MAKELEVEL", "MFLAGS", "ARGS",
		"ADDR", "BOARD", "CODE", "EXERCISE", "FILE", "FORCE", "KIT", "LESSON", "NAME", "NEW_CODE", "SOLUTION", "VERBOSE", "WRONG",
	} {
		drop[k] = true
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !drop[k] {
			env = append(env, kv)
		}
	}
	return append(env,
		"GOPROXY=off", "GOTOOLCHAIN=local", "GOMODCACHE="+cmp.Or(p.mountOver, p.modCache),
		"HTTP_PROXY="+deadProxy, "HTTPS_PROXY="+deadProxy, "http_proxy="+deadProxy, "https_proxy="+deadProxy, "ALL_PROXY="+deadProxy,
		"WORKSHOP_CACHE="+p.binCache, "CLUSTER=local",
	)
}

// stopCloneCluster stops the clone's cluster as a learner would (make cluster-down), then makes
// sure: a program of the clone's cluster still running after it is an error, and is killed.
func (p *kitProof) stopCloneCluster() {
	dir := filepath.Join(p.clone, ".cluster")
	if _, err := os.Stat(dir); err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if out, err := p.run(ctx, p.clone, "make", "cluster-down"); err != nil {
		p.t.Errorf("stopping the clone's cluster: %v\n%s", err, text.Tail(out, 20, "    | "))
	}
	for pid, name := range killClusterPrograms(dir, p.cloneBins.Dir) {
		p.t.Errorf("%s (pid %d) still ran after make cluster-down", name, pid)
	}
}

// removeAll stops a cluster left in the clone's folder, then removes the clone and both caches
// (the module cache's files and folders are read-only: removeModCache makes them writable).
func (p *kitProof) removeAll() {
	killClusterPrograms(filepath.Join(p.clone, ".cluster"), p.cloneBins.Dir)
	for _, dir := range []string{p.clone, p.modCache, p.binCache} {
		removeModCache(dir)
		if _, err := os.Stat(dir); err == nil {
			p.t.Errorf("could not remove %s", dir)
		}
	}
}

// killClusterPrograms kills what still runs of the cluster in dir (clusterProgramPids: the
// scratch cache's programs, never another cluster's) and returns what it killed. The clone is
// removed next, so its data need not survive.
func killClusterPrograms(dir, binDir string) map[int]string {
	left := clusterProgramPids(dir, binDir)
	for pid := range left {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return left
}

// clusterProgramPids are the processes of the cluster in dir: programs from binDir whose command
// line names dir (as the local package finds them). Empty without /proc.
func clusterProgramPids(dir, binDir string) map[int]string {
	pids := map[int]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if strings.HasPrefix(exe, filepath.Clean(binDir)+"/") && strings.Contains(string(cmdline), filepath.Clean(dir)+"/") {
			pids[pid] = filepath.Base(exe)
		}
	}
	return pids
}

// checkUntouched fails the test if a program of the workspace's own cluster that ran before the
// proof no longer runs after it.
func (p *kitProof) checkUntouched(dir, binDir string, before map[int]string) {
	after := clusterProgramPids(dir, binDir)
	for pid, name := range before {
		if _, ok := after[pid]; !ok {
			p.t.Errorf("the workspace's own cluster lost %s (pid %d) during the kit proof", name, pid)
		}
	}
}

// stdoutToFile runs f with os.Stdout sent to a file (MakeKit prints its progress), and returns
// what it printed.
func stdoutToFile(path string, f func() error) (string, error) {
	file, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer file.Close()
	saved := os.Stdout
	os.Stdout = file
	err = f()
	os.Stdout = saved
	out, _ := os.ReadFile(path)
	return string(out), err
}

// deadProxy is an HTTP proxy on loopback that serves nothing: each connection is recorded by its
// first line (CONNECT host:443 for HTTPS) and answered 502.
type deadProxy struct {
	ln       net.Listener
	mu       sync.Mutex
	requests []string
}

func startDeadProxy(t *testing.T) *deadProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	d := &deadProxy{ln: ln}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go d.refuse(conn)
		}
	}()
	return d
}

func (d *deadProxy) refuse(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	line, _ := bufio.NewReader(conn).ReadString('\n')
	d.mu.Lock()
	d.requests = append(d.requests, strings.TrimSpace(line))
	d.mu.Unlock()
	_, _ = conn.Write([]byte("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"))
}

func (d *deadProxy) url() string { return "http://" + d.ln.Addr().String() }

func (d *deadProxy) hits() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string{}, d.requests...)
}

// tWriter sends the lock's messages to the test log.
type tWriter struct{ t *testing.T }

func (w tWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
