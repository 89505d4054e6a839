package doctor

import (
	"fmt"
	"go/version"
	"strings"
	"workshop.local/scripts/internal/cluster/binaries"

	"workshop.local/scripts/workspace"
)

// Status of one check. Only Fail makes the machine not ready; Warn is worth fixing before the
// workshop but make check works without it.
type Status string

const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "fail"
)

// Check is one line of the report.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Report is the whole verdict, as `make doctor --json` prints it.
type Report struct {
	Ready  bool    `json:"ready"`
	Checks []Check `json:"checks"`
}

const gib = 1 << 30

// Evaluate judges the facts, one check per line, in the order a learner would fix them.
func Evaluate(f Facts) Report {
	checks := []Check{
		platform(f), goVersion(f), tool("make", f.Make, installHint(f, "make")), tool("git", f.Git, installHint(f, "git")),
		disk(f), memory(f), engine(f), clusterChoice(f), proxy(f), clusterBinaries(f), oldBuilds(f), kindImage(f),
		lessonBinaries(f), raceDetector(f), clusterUp(f), kubeconfig(f), learnerLanguage(f),
	}
	r := Report{Ready: true, Checks: checks}
	for _, c := range checks {
		if c.Status == Fail {
			r.Ready = false
		}
	}
	return r
}

// learnerLanguage says which language the learner's loop speaks, and how to switch: never a
// problem, always worth knowing.
func learnerLanguage(f Facts) Check {
	if f.Chinese {
		return Check{Name: "language", Status: OK, Detail: "简体中文: make check, hint, watch and progress speak Chinese and read README.zh-CN.md and hints.zh-CN.md (WORKSHOP_LANG=en for English)"}
	}
	return Check{Name: "language", Status: OK, Detail: "English (WORKSHOP_LANG=zh-CN, or a Chinese LANG, for 简体中文: make check, hint, watch and progress)"}
}

func platform(f Facts) Check {
	c := Check{Name: "platform", Status: OK, Detail: f.OS + "/" + f.Arch}
	switch {
	case f.OS == "windows":
		c.Status, c.Detail = Fail, "native Windows is not supported (the local cluster and the Makefile need Linux or macOS)"
		c.Fix = "use WSL2: `wsl --install` in an administrator PowerShell, then clone and run make inside WSL's Linux file system (not /mnt/c)"
	case f.WSL:
		c.Detail += " (WSL2)"
	}
	return c
}

func goVersion(f Facts) Check {
	c := Check{Name: "Go", Status: OK, Detail: f.GoVersion}
	want := "go" + f.GoWanted
	switch {
	case f.GoVersion == "":
		c.Status, c.Detail, c.Fix = Fail, "go is not on PATH", "install Go "+f.GoWanted+" or newer from https://go.dev/dl and put its bin folder on PATH"
	case !version.IsValid(f.GoVersion):
		c.Status, c.Detail = Warn, f.GoVersion+" (a development build; the workspace wants "+want+" or newer)"
	case version.Compare(f.GoVersion, want) < 0:
		c.Status, c.Detail = Fail, f.GoVersion+" is older than the "+want+" go.work asks for"
		c.Fix = "install Go " + f.GoWanted + " or newer from https://go.dev/dl (go.work's toolchain line cannot fetch it offline)"
	}
	return c
}

func tool(name string, present bool, fix string) Check {
	if present {
		return Check{Name: name, Status: OK, Detail: "on PATH"}
	}
	return Check{Name: name, Status: Fail, Detail: name + " is not on PATH", Fix: fix}
}

func installHint(f Facts, name string) string {
	if f.OS == "darwin" {
		return "install Apple's command line tools: `xcode-select --install` (brings " + name + ")"
	}
	return "install it with your package manager, e.g. `sudo apt-get install " + name + "`"
}

func disk(f Facts) Check {
	c := Check{Name: "free disk", Status: OK, Detail: gibString(f.DiskFree) + " free"}
	switch {
	case f.DiskFree == 0:
		c.Status, c.Detail = Warn, "unknown on this system"
	case f.DiskFree < 4*gib:
		c.Status, c.Fix = Fail, "free at least 10 GiB: the module cache, build cache and cluster binaries take about 6 GiB (`go clean -cache` frees old builds)"
	case f.DiskFree < 10*gib:
		c.Status, c.Fix = Warn, "10 GiB free is comfortable: the caches grow to about 6 GiB"
	}
	return c
}

func memory(f Facts) Check {
	what := " available"
	if f.MemIsTotal {
		what = " in all"
	}
	c := Check{Name: "memory", Status: OK, Detail: gibString(f.MemAvail) + what}
	switch {
	case f.MemAvail == 0:
		c.Status, c.Detail = Warn, "unknown on this system"
	case f.MemAvail < 2*gib:
		c.Status, c.Fix = Fail, "the cluster and a lesson's specs need about 2 GiB: close other programs (browsers, IDE indexers)"
	case f.MemAvail < 4*gib:
		c.Status, c.Fix = Warn, "4 GiB free is comfortable (building the local cluster peaks near 3 GiB)"
	}
	return c
}

func engine(f Facts) Check {
	e := f.Engine
	c := Check{Name: "container engine", Status: OK}
	switch {
	case e.Answers:
		c.Detail = e.Name + " answers"
	case e.Installed:
		c.Status, c.Detail = Warn, e.Name+" is installed but not running ("+e.Detail+")"
		c.Fix = "start it (Docker Desktop, or `sudo systemctl start " + e.Name + "`) to use kind; without it the local cluster runs instead"
	default:
		c.Detail = "none (docker, podman, nerdctl): the local cluster will run, no engine needed"
	}
	return c
}

func clusterChoice(f Facts) Check {
	if f.ClusterErr != "" {
		return Check{Name: "cluster kind", Status: Fail, Detail: f.ClusterErr, Fix: "unset CLUSTER, or `make cluster-down` first"}
	}
	return Check{Name: "cluster kind", Status: OK, Detail: f.ClusterKind + " (" + f.ClusterWhy + ")"}
}

// needsDownloads is true when something is still to be fetched: a first make check would go to
// the network.
func needsDownloads(f Facts) bool {
	return f.LessonsErr != "" || (f.ClusterNeeds.Binaries && len(f.BinariesMissing) > 0)
}

func proxy(f Facts) Check {
	c := Check{Name: "module proxy", Status: OK}
	switch {
	case f.KitInUse:
		c.Detail = "offline kit in use (" + f.ProxyDetail + ")"
	case f.ProxyReached:
		c.Detail = f.GoProxy + " answers"
	case needsDownloads(f):
		c.Status, c.Detail = Fail, "GOPROXY="+f.GoProxy+" does not answer ("+f.ProxyDetail+") and modules are still missing"
		c.Fix = "connect and run `make prepare`, or install the instructor's kit: `make kit-install KIT=path/to/kit.tar.gz`"
	default:
		c.Status, c.Detail = Warn, "GOPROXY="+f.GoProxy+" does not answer ("+f.ProxyDetail+"); everything needed is already downloaded"
	}
	return c
}

func clusterBinaries(f Facts) Check {
	c := Check{Name: "cluster binaries", Status: OK, Detail: "built in " + f.BinariesDir}
	if len(f.BinariesMissing) == 0 {
		return c
	}
	c.Detail = "not built: " + strings.Join(f.BinariesMissing, ", ")
	c.Fix = "`make prepare` builds them once (about 10 min on 2 cores), or `make kit-install` brings them"
	c.Status = Warn // kind does not need them
	if f.ClusterNeeds.Binaries {
		c.Status = Fail
	}
	return c
}

// oldBuilds reports the disk that old cluster builds hold: each new pin or build recipe builds
// beside the old one, which another clone may still use, so nothing removes them by itself.
func oldBuilds(f Facts) Check {
	c := Check{Name: "old cluster builds", Status: OK, Detail: "none"}
	if len(f.OldBuilds) == 0 {
		return c
	}
	c.Status, c.Detail = Warn, binaries.StaleSummary(f.OldBuilds)+" in the binary cache that no clone on this machine uses"
	c.Fix = "`make cluster-prune` removes them"
	return c
}

func kindImage(f Facts) Check {
	c := Check{Name: "kind node image", Status: OK}
	switch {
	case !f.Engine.Answers:
		c.Detail = "not looked for (no engine answers; the local cluster needs no image)"
	case f.KindImagePresent:
		c.Detail = "present"
	case f.ClusterNeeds.NodeImage:
		c.Status, c.Detail = Fail, "not pulled: the first make cluster would download it (several hundred MB) on the workshop's network"
		c.Fix = "`make kind-pull` (or `make prepare`, which pulls it too)"
		if len(f.BinariesMissing) == 0 {
			c.Fix += "; or use the local cluster, already built: `export CLUSTER=local`"
		}
	default:
		c.Status, c.Detail = Warn, "not pulled (only needed with CLUSTER=kind): "+f.KindImage
		c.Fix = "`make kind-pull`"
	}
	return c
}

func lessonBinaries(f Facts) Check {
	c := Check{Name: "lesson test binaries", Status: OK}
	switch {
	case f.LessonsErr != "":
		c.Status, c.Detail = Fail, "modules missing offline: "+f.LessonsErr
		c.Fix = "`make prepare` (with the network) or `make kit-install KIT=...`"
	case f.StalePkgs > 0:
		c.Status = Warn
		c.Detail = fmt.Sprintf("cold: %d packages of %d lessons' specs still to compile (a first make check waits for them)", f.StalePkgs, f.Lessons)
		c.Fix = "`make prepare` compiles them now"
	default:
		c.Detail = fmt.Sprintf("warm for %d lessons", f.Lessons)
	}
	return c
}

// raceDetector: a lesson that teaches concurrency builds its specs with -race, which needs cgo.
// Without it those lessons do not build at all, so this fails, but only when such a lesson exists.
func raceDetector(f Facts) Check {
	c := Check{Name: "race detector", Status: OK, Detail: f.CgoDetail}
	switch {
	case len(f.RaceLessons) == 0:
		c.Detail = "no lesson needs it"
	case !f.CgoReady:
		c.Status = Fail
		c.Detail = "lesson " + strings.Join(f.RaceLessons, ", ") + " builds its specs with -race, which needs cgo: " + f.CgoDetail
		c.Fix = installHint(f, "gcc") + ", and leave CGO_ENABLED unset"
	}
	return c
}

func clusterUp(f Facts) Check {
	if f.ClusterUp {
		return Check{Name: "cluster", Status: OK, Detail: "running, API answers"}
	}
	return Check{Name: "cluster", Status: Warn, Detail: "not running (" + f.UpDetail + ")", Fix: "`make cluster` (make check also starts it)"}
}

func kubeconfig(f Facts) Check {
	c := Check{Name: "kubeconfig", Status: OK, Detail: f.Kubeconfig + ", context " + f.Context}
	switch {
	case !f.KubeconfigOK:
		c.Status, c.Detail, c.Fix = Warn, "none yet ("+f.Kubeconfig+")", "`make cluster` writes it"
	case f.Context != workspace.LocalContext && f.Context != workspace.KindContext:
		c.Status, c.Detail = Fail, "current context is "+f.Context+", not the workshop's ("+workspace.LocalContext+" or "+workspace.KindContext+")"
		c.Fix = "`make cluster-down && make cluster` rewrites " + f.Kubeconfig + " (your ~/.kube/config is never used)"
	}
	return c
}

func gibString(b uint64) string { return fmt.Sprintf("%.1f GiB", float64(b)/gib) }
