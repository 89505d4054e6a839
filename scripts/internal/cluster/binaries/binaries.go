package binaries

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"workshop.local/scripts/internal/cluster/lock"
	"workshop.local/scripts/workspace"

	"golang.org/x/term"

	"workshop.local/scripts/internal/buildprogress"
	"workshop.local/scripts/internal/text"
	"workshop.local/scripts/versions"
)

// binary is one program of the local cluster and how to build it from its builder module.
type binary struct {
	name   string    // file name in the cache, e.g. "kube-apiserver"
	module string    // builder module folder under build/, e.g. "kube"
	pkg    string    // main package to build
	tree   treeState // how its version stamp describes its sources (stamp.go)
}

var clusterBinaries = []binary{
	{"etcd", "etcd", "go.etcd.io/etcd/server/v3", etcdProgram},
	// kube-apiserver, kube-controller-manager, kube-scheduler and our hollow node in one binary
	// (build/kube/workshopkube): one link instead of four, and one copy of their shared code in
	// memory. Its main package is ours, so its version stamp says dirty (stamp.go).
	{"workshop-kube", "kube", "workshop.local/clusterbuild/kube/workshopkube", dirty},
	{"kubectl", "kube", "k8s.io/kubernetes/cmd/kubectl", archive},
}

// buildTags are each builder module's build tags. For Kubernetes they are the tags its own release
// build passes (hack/lib/golang.sh, v1.37.1): notest leaves out apimachinery's fuzzing helpers,
// grpcnotrace leaves out gRPC's use of golang.org/x/net/trace, an import that keeps the linker
// from eliminating dead code (gRPC's trace_notrace.go), and selinux selects no file of these
// programs. With them workshop-kube is 118 MB instead of 141 MB (docs/benchmarks.md). etcd's own
// build (scripts/build_lib.sh) passes none.
var buildTags = map[string]string{"kube": "selinux,notest,grpcnotrace"}

// BuilderModules are the builder modules under BuilderDir, each built outside go.work.
var BuilderModules = []string{"etcd", "kube"}

// BuilderDir is where the builder modules live in a workspace.
func BuilderDir(workspaceRoot string) string {
	return filepath.Join(workspaceRoot, "scripts", "internal", "cluster", "local", "build")
}

// BuilderEnv is how every go command in a builder module runs (the build here, make prepare's
// downloads, make kit's listing): outside go.work on purpose, -mod=mod so go may complete its
// go.sum, and with the module's build tags, without which go lists other files than it builds.
func BuilderEnv(module string, extraFlags ...string) []string {
	flags := append([]string{"-mod=mod"}, extraFlags...)
	if tags := buildTags[module]; tags != "" {
		flags = append(flags, "-tags="+tags)
	}
	return []string{"GOWORK=off", "GOFLAGS=" + strings.Join(flags, " ")}
}

// programs names, for each program the cluster runs, the binary in the cache that runs it and
// the arguments that select it: the Kubernetes programs are commands of workshop-kube.
var programs = map[string]struct {
	binary  string
	command []string
}{
	"etcd":                    {"etcd", nil},
	"kube-apiserver":          {"workshop-kube", []string{"kube-apiserver"}},
	"kube-controller-manager": {"workshop-kube", []string{"kube-controller-manager"}},
	"kube-scheduler":          {"workshop-kube", []string{"kube-scheduler"}},
	"hollow-node":             {"workshop-kube", []string{"hollow-node"}},
}

// BuilderPackages lists the main packages built from the builder module named module ("etcd",
// "kube"): what make kit must find the modules of.
func BuilderPackages(module string) []string {
	var pkgs []string
	for _, bin := range clusterBinaries {
		if bin.module == module {
			pkgs = append(pkgs, strings.Replace(bin.pkg, "workshop.local/clusterbuild/"+module+"/", "./", 1))
		}
	}
	return pkgs
}

// buildRecipe names how the programs are built (flags, version stamps) in the cache folder's
// name. Bump it when that changes: programs cached by an older recipe are then built afresh
// beside them instead of reused (recipe 2 stamps gitCommit and buildDate; recipe 1 did not;
// recipe 3 builds the four Kubernetes programs of the cluster as one binary, workshop-kube;
// recipe 4 adds Kubernetes' release build tags, buildTags; recipe 5 stamps etcd's commit).
const buildRecipe = "recipe5"

// Binaries is the cache folder holding one build of the cluster's programs. It is keyed by the
// pinned versions and the platform, so every clone on the machine shares it and a version bump
// builds afresh beside the old one.
type Binaries struct {
	Dir        string // e.g. ~/.cache/ctrl-workshop/kubernetes-v1.37.1-etcd-v3.6.16-linux-amd64-recipe4
	BuilderDir string // BuilderDir(the workspace's root)
	Workspace  string // the workspace's root, recorded as a user of the folder (prune.go)
}

// Default places the cache in $WORKSHOP_CACHE if set, else the user's cache folder.
func Default(workspaceRoot string) (Binaries, error) {
	base := os.Getenv("WORKSHOP_CACHE")
	if base == "" {
		userCache, err := os.UserCacheDir()
		if err != nil {
			return Binaries{}, fmt.Errorf("no cache folder for the cluster binaries (%v): set WORKSHOP_CACHE to a writable folder", err)
		}
		base = filepath.Join(userCache, "ctrl-workshop")
	}
	key := fmt.Sprintf("kubernetes-%s-etcd-%s-%s-%s-%s", versions.Kubernetes(), versions.Etcd(), runtime.GOOS, runtime.GOARCH, buildRecipe)
	return Binaries{
		Dir:        filepath.Join(base, key),
		BuilderDir: BuilderDir(workspaceRoot),
		Workspace:  workspaceRoot,
	}, nil
}

// Path is where the named binary lives in the cache: "etcd", "workshop-kube" or "kubectl".
func (b Binaries) Path(name string) string {
	for _, bin := range clusterBinaries {
		if bin.name == name {
			return filepath.Join(b.Dir, b.fileName(bin))
		}
	}
	return filepath.Join(b.Dir, name)
}

// Command is how to start the named cluster program ("kube-apiserver", "hollow-node", ...):
// the binary in the cache and the arguments that come before the program's own flags.
func (b Binaries) Command(program string) (string, []string) {
	p, ok := programs[program]
	if !ok {
		panic("no cluster program is called " + program) // a typo in this package, not an input
	}
	return b.Path(p.binary), p.command
}

// fileName is the program's name in the cache. Upstream programs are fixed by the pinned
// versions in the cache folder's name; our own programs (workshop-kube) also change with the
// workspace's sources, so their name carries a hash of those: an updated workspace builds anew
// instead of running a stale binary.
func (b Binaries) fileName(bin binary) string {
	if !strings.HasPrefix(bin.pkg, "workshop.local/clusterbuild/"+bin.module+"/") {
		return bin.name
	}
	return bin.name + "-" + sourceHash(filepath.Join(b.BuilderDir, bin.module))
}

// sourceHash digests the builder module's go.mod and go.sum and the Go files of its own packages
// (workshopkube and the hollownode package it imports).
func sourceHash(moduleDir string) string {
	h := sha256.New()
	files := []string{filepath.Join(moduleDir, "go.mod"), filepath.Join(moduleDir, "go.sum")}
	goFiles, _ := filepath.Glob(filepath.Join(moduleDir, "*", "*.go")) // sorted
	for _, f := range append(files, goFiles...) {
		data, _ := os.ReadFile(f)
		rel, _ := filepath.Rel(moduleDir, f)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// Files are the file names, in Dir, of the programs this workspace builds: what make kit packs.
// Dir may also hold our own programs as an older workspace built them, under another source hash.
func (b Binaries) Files() []string {
	var files []string
	for _, bin := range clusterBinaries {
		files = append(files, b.fileName(bin))
	}
	return files
}

// Missing lists the programs not yet built.
func (b Binaries) Missing() []string {
	return b.missing(clusterBinaries)
}

func (b Binaries) missing(bins []binary) []string {
	var missing []string
	for _, bin := range bins {
		if _, err := os.Stat(b.Path(bin.name)); err != nil {
			missing = append(missing, bin.name)
		}
	}
	return missing
}

// Ensure builds every missing program, one at a time, printing progress to out. Builds hold a
// lock on the cache so two clones (or two terminals) never build the same file at once.
func (b Binaries) Ensure(ctx context.Context, out io.Writer) error {
	return b.ensure(ctx, out, clusterBinaries)
}

// ensure builds what is missing of bins and records that this workspace uses the folder, so
// that make cluster-prune in another clone leaves it alone (prune.go).
func (b Binaries) ensure(ctx context.Context, out io.Writer, bins []binary) error {
	if err := b.buildMissing(ctx, out, bins); err != nil {
		return err
	}
	if err := b.recordUse(); err != nil {
		fmt.Fprintf(out, "warning: could not record this workspace's use of %s (%v): make cluster-prune in another clone may remove it\n", b.Dir, err)
	}
	return nil
}

func (b Binaries) buildMissing(ctx context.Context, out io.Writer, bins []binary) error {
	if len(b.missing(bins)) == 0 {
		return nil
	}
	if _, err := exec.LookPath("go"); err != nil {
		return errors.New("the local cluster is built from source with Go, but `go` is not on PATH: install Go 1.26 (go.dev/dl), or use CLUSTER=kind with Docker")
	}
	if err := os.MkdirAll(b.Dir, 0o755); err != nil {
		return fmt.Errorf("create the binary cache %s: %w (set WORKSHOP_CACHE to a writable folder)", b.Dir, err)
	}
	unlock, err := lock.FileShowing(ctx, filepath.Join(b.Dir, ".build.lock"), out,
		"another build of the cluster binaries is running (another clone or terminal); waiting for it", b.buildStatus)
	if err != nil {
		return err
	}
	defer unlock()
	defer os.Remove(b.statusPath())
	fmt.Fprintf(out, "Building the local cluster from source (Kubernetes %s, etcd %s) into %s.\n", versions.Kubernetes(), versions.Etcd(), b.Dir)
	fmt.Fprintln(out, "This happens once per machine and takes several minutes on a laptop; later starts take seconds.")
	for _, bin := range bins {
		if _, err := os.Stat(b.Path(bin.name)); err == nil {
			continue // built meanwhile by the lock holder, or by an earlier run
		}
		rel, err := stampedRelease(ctx, bin)
		if err != nil {
			return fmt.Errorf("building %s failed: %w", bin.name, err)
		}
		if err := b.build(ctx, bin, rel, out); err != nil {
			return err
		}
	}
	return nil
}

// stampedRelease is the release a program's version stamp names: etcd's or Kubernetes'.
func stampedRelease(ctx context.Context, bin binary) (release, error) {
	if bin.tree == etcdProgram {
		return etcdRelease(ctx)
	}
	return kubernetesRelease(ctx)
}

// build compiles one program into a temporary file and renames it into place, so an interrupted
// build never leaves a half-written binary that a later run would trust.
func (b Binaries) build(ctx context.Context, bin binary, rel release, out io.Writer) error {
	tmp := b.Path(bin.name) + ".partial"
	logPath := b.Path(bin.name) + ".build.log"
	// -x traces one compile command per package: buildprogress counts them for the progress line.
	args := []string{"build", "-x", "-trimpath", "-ldflags", ldflags(bin.tree, rel), "-o", tmp, bin.pkg}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = filepath.Join(b.BuilderDir, bin.module)
	cmd.Env = append(os.Environ(), BuilderEnv(bin.module)...)
	var output, stdout bytes.Buffer
	cmd.Stdout = &stdout // apart from output, which the trace follower writes meanwhile

	p := showProgress(out, bin.name)
	p.shared = b.statusPath()
	total := buildprogress.Stale(ctx, cmd.Dir, cmd.Env, nil, bin.pkg)
	trace, traceWriter := io.Pipe()
	cmd.Stderr = traceWriter
	followed := make(chan struct{})
	go func() { buildprogress.Follow(trace, &output, total, p.update); close(followed) }()
	err := cmd.Run()
	traceWriter.Close()
	<-followed
	output.Write(stdout.Bytes())
	elapsed := p.stop()
	_ = os.WriteFile(logPath, output.Bytes(), 0o644)
	if err != nil {
		_ = os.Remove(tmp)
		return buildError(bin.name, output.String(), logPath, err)
	}
	fmt.Fprintf(out, "  built %-24s in %s\n", bin.name, elapsed.Round(time.Second))
	return os.Rename(tmp, b.Path(bin.name))
}

// progress shows which program is building, how many of its packages are compiled and the
// elapsed time, so a long first build never looks hung: on a terminal one line redrawn as each
// package is compiled, in a log a line every 15 seconds.
type progress struct {
	out   io.Writer
	name  string
	start time.Time
	tty   bool
	mu    sync.Mutex
	last  buildprogress.Progress
	done  chan struct{}
	// shared is a file the line is also written to (at most once a second), for a process that
	// waits for this build's lock to show.
	shared     string
	sharedLast time.Time
}

func showProgress(out io.Writer, name string) *progress {
	p := &progress{out: out, name: name, start: time.Now(), done: make(chan struct{})}
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	fmt.Fprintf(out, "  building %s ...\n", name)
	go func() {
		tick := time.NewTicker(15 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-tick.C:
				if !p.tty {
					fmt.Fprintln(p.out, p.line())
				}
			}
		}
	}()
	return p
}

func (p *progress) update(bp buildprogress.Progress) {
	p.mu.Lock()
	p.last = bp
	p.mu.Unlock()
	if p.tty {
		fmt.Fprintf(p.out, "\r\x1b[K%s", p.line())
	}
	p.share()
}

// share writes the progress line to p.shared, at most once a second.
func (p *progress) share() {
	if p.shared == "" || time.Since(p.sharedLast) < time.Second {
		return
	}
	p.sharedLast = time.Now()
	_ = os.WriteFile(p.shared, []byte(strings.TrimSpace(p.line())+"\n"), 0o644)
}

// statusPath is where the build holding the lock shows its progress line.
func (b Binaries) statusPath() string { return filepath.Join(b.Dir, ".build.status") }

// buildStatus is the progress line of the build holding the lock, "" if it has written none.
func (b Binaries) buildStatus() string {
	data, err := os.ReadFile(b.statusPath())
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func (p *progress) line() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := time.Since(p.start).Round(time.Second)
	if p.last.Compiled == 0 && !p.last.Linking {
		return fmt.Sprintf("  building %s ... %s (resolving modules)", p.name, elapsed)
	}
	return fmt.Sprintf("  building %s ... %s, %s", p.name, p.last, elapsed)
}

// stop ends the progress line and returns the build's duration.
func (p *progress) stop() time.Duration {
	close(p.done)
	if p.tty {
		fmt.Fprint(p.out, "\r\x1b[K")
	}
	return time.Since(p.start)
}

// buildError turns a failed go build into one sentence with a way out, plus the tail of the log.
func buildError(name, output, logPath string, err error) error {
	hint := "see the build log"
	if looksOffline(output) {
		hint = "the Go module proxy could not be reached (GOPROXY=" + goEnv("GOPROXY") + "); connect once to build, " +
			"or point GOPROXY at a reachable proxy; after one build the binaries are cached"
	}
	return fmt.Errorf("building %s failed (%v): %s.\nBuild log: %s\n%s", name, err, hint, logPath, text.Tail(output, 12, "    "))
}

func looksOffline(output string) bool {
	for _, sign := range []string{"dial tcp", "no such host", "connection refused", "i/o timeout", "TLS handshake timeout", "network is unreachable"} {
		if strings.Contains(output, sign) {
			return true
		}
	}
	return false
}

// goEnv is `go env key`, or "?" when go cannot say.
func goEnv(key string) string {
	if v := workspace.GoEnv(key); v != "" {
		return v
	}
	return "?"
}
