package doctor

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"workshop.local/scripts/internal/cluster"
	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/probe"
	"workshop.local/scripts/internal/say"
	"workshop.local/scripts/internal/text"
	"workshop.local/scripts/versions"
	"workshop.local/scripts/workspace"
)

// Gather looks at this machine and the workspace at root; wanted is CLUSTER. It only reads: nothing is built,
// pulled or started, and no go command may reach the network (GOPROXY=off for go list).
func Gather(ctx context.Context, root, wanted string) Facts {
	f := Facts{OS: runtime.GOOS, Arch: runtime.GOARCH, WSL: isWSL(), GoWanted: goWorkVersion(root), Chinese: say.Chinese()}
	f.GoVersion = workspace.GoEnv("GOVERSION")
	f.Make, f.Git = onPath("make"), onPath("git")
	f.DiskFree = diskFree(root)
	f.MemAvail, f.MemIsTotal = memAvailable()

	clusterDir := workspace.ClusterDir(root)
	f.Engine = cluster.DetectEngine(ctx)

	f.GoProxy = workspace.GoEnv("GOPROXY")
	f.KitInUse, f.ProxyReached, f.ProxyDetail = probeProxy(ctx, f.GoProxy)

	if bins, err := binaries.Default(root); err == nil {
		f.BinariesDir, f.BinariesMissing = bins.Dir, bins.Missing()
		f.OldBuilds, _ = bins.Stale() // unreadable cache folders: nothing to report
	}
	f.KindImage = versions.KindNodeImage()
	if f.Engine.Answers {
		f.KindImagePresent = f.Engine.ImagePresent(ctx, f.KindImage)
	}

	// Without the network: GOPROXY=off, or the kit, which is a folder on this laptop.
	offline := "off"
	if f.KitInUse {
		offline = strings.Split(f.GoProxy, ",")[0] + ",off"
	}
	f.Lessons, f.StalePkgs, f.LessonsErr = staleLessonPackages(ctx, root, offline)
	f.RaceLessons, f.CgoReady, f.CgoDetail = raceSupport(root)
	f.Kubeconfig = workspace.KubeconfigPath(clusterDir)
	if cfg, err := clientcmd.LoadFromFile(f.Kubeconfig); err == nil {
		f.KubeconfigOK, f.Context = true, cfg.CurrentContext
	}
	f.ClusterUp, f.UpDetail = apiAnswers(ctx, f.Kubeconfig, f.KubeconfigOK)

	runtime, why, err := cluster.Decide(wanted, gatheredProbe{ctx, &f, cluster.Recorded(clusterDir)})
	f.ClusterKind, f.ClusterWhy, f.ClusterNeeds = runtime, why, cluster.NeedsOf(runtime)
	if err != nil {
		f.ClusterErr = err.Error()
	}
	return f
}

// gatheredProbe answers the cluster tool's decision from what Gather found; the doctor never
// asks the learner anything, so an engine that is stopped shows as the error make cluster
// would give.
type gatheredProbe struct {
	ctx      context.Context
	f        *Facts
	existing string
}

func (p gatheredProbe) Existing() string               { return p.existing }
func (p gatheredProbe) Active(string) bool             { return p.f.ClusterUp }
func (p gatheredProbe) Engine() cluster.Engine         { return p.f.Engine }
func (p gatheredProbe) ImagePresent() bool             { return p.f.KindImagePresent }
func (p gatheredProbe) Pullable() error                { return p.f.Engine.Pullable(p.ctx, p.f.KindImage) }
func (gatheredProbe) LocalInstead(cluster.Engine) bool { return false }

func onPath(name string) bool { _, err := exec.LookPath(name); return err == nil }

// goWorkVersion is the go line of go.work ("1.26.0"): the oldest Go the workspace builds with.
func goWorkVersion(root string) string {
	data, _ := os.ReadFile(filepath.Join(root, "go.work"))
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

func isWSL() bool {
	data, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return strings.Contains(strings.ToLower(string(data)), "microsoft")
}

// probeProxy looks at GOPROXY's first entry: a file:// folder is a kit (in use when it exists),
// an http(s) proxy is asked for its root with a short timeout; any HTTP answer counts.
func probeProxy(ctx context.Context, goproxy string) (kit, reached bool, detail string) {
	first := strings.FieldsFunc(goproxy, func(r rune) bool { return r == ',' || r == '|' })
	if len(first) == 0 {
		return false, false, "GOPROXY is empty"
	}
	entry := first[0]
	switch {
	case entry == "off":
		return false, false, "GOPROXY=off"
	case entry == "direct":
		return false, false, "direct: modules come from their VCS hosts, not probed"
	case strings.HasPrefix(entry, "file://"):
		u, err := url.Parse(entry)
		if err != nil {
			return false, false, err.Error()
		}
		if _, err := os.Stat(u.Path); err != nil {
			return false, false, "the kit folder " + u.Path + " is missing"
		}
		return true, false, u.Path
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, entry, nil)
	if err != nil {
		return false, false, err.Error()
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false, false, text.FirstLine(err.Error())
	}
	resp.Body.Close()
	return false, true, resp.Status
}

// staleLessonPackages asks go list, without the network, how many packages the lessons' test
// binaries still need compiled. An error means modules are missing from the module cache.
func staleLessonPackages(ctx context.Context, root, goproxy string) (int, int, string) {
	all, err := lessons.Discover(root)
	if err != nil {
		return 0, 0, err.Error()
	}
	stale := 0
	for flags, pkgs := range byTestFlags(all) {
		args := append([]string{"list", "-deps", "-test", "-f", "{{.ImportPath}}\t{{.Name}}\t{{.Stale}}"}, strings.Fields(flags)...)
		cmd := exec.CommandContext(ctx, "go", append(args, pkgs...)...)
		cmd.Dir, cmd.Env = root, append(os.Environ(), "GOPROXY="+goproxy)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return len(all), 0, lastLine(stderr.String())
		}
		stale += countStale(string(out))
	}
	return len(all), stale, ""
}

// byTestFlags groups the lessons' packages by the flags make check builds their specs with:
// lesson 11's build tag, lesson 13's -race, which compiles another variant of every package.
// Asked without them, go list would count packages make check never builds.
func byTestFlags(all []lessons.Lesson) map[string][]string {
	groups := map[string][]string{}
	for _, l := range all {
		flags := strings.Join(l.TestFlags(), " ")
		groups[flags] = append(groups[flags], "./lessons/"+l.Name)
	}
	return groups
}

// countStale counts stale packages in go list's "path\tname\tstale" lines, leaving out what a
// test build never compiles or always redoes: main packages (each lesson's generated test main,
// stale whenever no binary is installed; linking takes seconds) and a package whose tests are
// in the package itself (go test -c compiles its test variant "p [p.test]", never p alone).
func countStale(listing string) int {
	lines := strings.Split(strings.TrimSpace(listing), "\n")
	variants := map[string]bool{}
	for _, line := range lines {
		if path, _, ok := strings.Cut(line, " ["); ok {
			variants[path] = true
		}
	}
	n := 0
	for _, line := range lines {
		fields := strings.Split(line, "\t")
		if len(fields) == 3 && fields[2] == "true" && fields[1] != "main" && !variants[fields[0]] {
			n++
		}
	}
	return n
}

func apiAnswers(ctx context.Context, kubeconfig string, exists bool) (bool, string) {
	if !exists {
		return false, "no kubeconfig"
	}
	ctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	defer cancel()
	if err := probe.Readyz(ctx, kubeconfig); err != nil {
		return false, text.FirstLine(err.Error())
	}
	return true, ""
}

// lastLine is go's error, after its "go: downloading ..." lines.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// raceSupport lists the lessons that build their specs with the race detector, and whether this
// machine can: -race needs cgo, so CGO_ENABLED=1 and the C compiler go env CC names.
func raceSupport(root string) ([]string, bool, string) {
	all, _ := lessons.Discover(root)
	var race []string
	for _, l := range all {
		if l.Manifest.Race {
			race = append(race, l.Number)
		}
	}
	if workspace.GoEnv("CGO_ENABLED") != "1" {
		return race, false, "cgo is off (CGO_ENABLED=0)"
	}
	cc := strings.Fields(workspace.GoEnv("CC"))
	if len(cc) == 0 || !onPath(cc[0]) {
		return race, false, "no C compiler: go env CC names " + workspace.GoEnv("CC")
	}
	return race, true, "cgo with " + cc[0]
}
