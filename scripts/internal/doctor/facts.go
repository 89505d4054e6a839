// Package doctor is make doctor: it gathers facts about the machine and the workspace (Gather),
// then judges them (Evaluate) into one line per check, each failure with its fix. The judging
// is a pure function of Facts, so it is tested over made-up machines without touching this one.
package doctor

import (
	"workshop.local/scripts/internal/cluster"
	"workshop.local/scripts/internal/cluster/binaries"
)

// Facts is everything the checks look at. Gather fills it from this machine; tests write it.
type Facts struct {
	OS, Arch string
	WSL      bool // Linux under Windows' WSL2

	GoVersion string // `go env GOVERSION`, e.g. "go1.26.8"; "" when go is not on PATH
	GoWanted  string // the go line of go.work, e.g. "1.26.0"
	Make, Git bool   // on PATH

	DiskFree   uint64 // bytes free where the workspace and caches live; 0 when unknown
	MemAvail   uint64 // bytes of memory available; 0 when unknown
	MemIsTotal bool   // MemAvail is the machine's total (macOS), not what is free now

	Engine       cluster.Engine
	ClusterKind  string // what CLUSTER (auto by default) picks: "kind" or "local"
	ClusterWhy   string
	ClusterErr   string        // CLUSTER is invalid or conflicts with the existing cluster
	ClusterNeeds cluster.Needs // what that runtime needs: its lacks fail, the others' only warn

	GoProxy      string // `go env GOPROXY`
	ProxyReached bool   // the first http(s) entry of GOPROXY answered
	ProxyDetail  string // why not, or the kit's folder
	KitInUse     bool   // GOPROXY's first entry is a file:// folder that exists

	BinariesDir     string
	BinariesMissing []string // cluster programs not built yet
	// OldBuilds are cluster builds in the shared cache that no clone on the machine uses.
	OldBuilds []binaries.Stale

	KindImage        string
	KindImagePresent bool // only looked for when Engine.Answers

	// RaceLessons are the lessons whose specs build with -race (lesson.yaml), which needs cgo:
	// CgoReady says CGO_ENABLED is on and the C compiler go would call is on PATH.
	RaceLessons  []string
	CgoReady     bool
	CgoDetail    string
	Lessons      int    // lessons whose test binaries were looked at
	StalePkgs    int    // packages a first make check would still compile
	LessonsErr   string // go list failed without the network: modules missing
	ClusterUp    bool   // the API server answers /readyz through the kubeconfig
	UpDetail     string // why not
	Kubeconfig   string // .cluster/kubeconfig
	KubeconfigOK bool   // it exists and parses
	Context      string // its current-context

	Chinese bool // the learner's loop speaks Simplified Chinese (WORKSHOP_LANG, or the locale)
}
