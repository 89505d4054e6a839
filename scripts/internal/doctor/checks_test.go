package doctor

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"workshop.local/scripts/internal/cluster"
	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/workspace"
)

// ready is a laptop with everything in place for the local cluster; each test breaks one thing.
func ready() Facts {
	return Facts{
		OS: "linux", Arch: "amd64", GoVersion: "go1.26.8", GoWanted: "1.26.0", Make: true, Git: true,
		DiskFree: 50 * gib, MemAvail: 8 * gib,
		Engine:      cluster.Engine{Detail: "no container engine is installed"},
		ClusterKind: "local", ClusterWhy: "no container engine answers",
		ClusterNeeds: cluster.NeedsOf(cluster.Local),
		GoProxy:      "https://proxy.golang.org,direct", ProxyReached: true,
		BinariesDir: "/cache/k", KindImage: "kindest/node:v1@sha256:x",
		Lessons: 9, ClusterUp: true, Kubeconfig: "/ws/.cluster/kubeconfig", KubeconfigOK: true,
		Context: workspace.LocalContext,
	}
}

func find(t *testing.T, r Report, name string) Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %q in %+v", name, r.Checks)
	return Check{}
}

func TestReadyLaptopPassesEveryCheck(t *testing.T) {
	r := Evaluate(ready())
	if !r.Ready {
		t.Fatalf("want ready, got %+v", r.Checks)
	}
	for _, c := range r.Checks {
		if c.Status != OK {
			t.Errorf("%s: %s (%s)", c.Name, c.Status, c.Detail)
		}
	}
	if len(r.Checks) != 17 {
		t.Errorf("want the 14 checks of issue 13's list, old cluster builds, the race detector and the language, got %d", len(r.Checks))
	}
}

// Each case breaks one fact and names the check that must say so, its status, and words its
// detail or fix must hold, so a learner reading the line knows what to do.
func TestEachFailureSaysItsFix(t *testing.T) {
	cases := []struct {
		name   string
		breaks func(*Facts)
		check  string
		status Status
		words  string
	}{
		{"native Windows", func(f *Facts) { f.OS = "windows" }, "platform", Fail, "WSL2"},
		{"no Go", func(f *Facts) { f.GoVersion = "" }, "Go", Fail, "go.dev/dl"},
		{"old Go", func(f *Facts) { f.GoVersion = "go1.25.3" }, "Go", Fail, "older than the go1.26.0"},
		{"no make on macOS", func(f *Facts) { f.OS, f.Make = "darwin", false }, "make", Fail, "xcode-select --install"},
		{"no git", func(f *Facts) { f.Git = false }, "git", Fail, "apt-get install git"},
		{"full disk", func(f *Facts) { f.DiskFree = 1 * gib }, "free disk", Fail, "10 GiB"},
		{"tight disk", func(f *Facts) { f.DiskFree = 6 * gib }, "free disk", Warn, "6 GiB"},
		{"little memory", func(f *Facts) { f.MemAvail = gib }, "memory", Fail, "close other programs"},
		{"Docker stopped", func(f *Facts) {
			f.Engine = cluster.Engine{Name: "docker", Installed: true, Detail: "Cannot connect to the Docker daemon"}
		}, "container engine", Warn, "systemctl start docker"},
		{"bad CLUSTER", func(f *Facts) { f.ClusterErr = `CLUSTER="kube" is not a kind of cluster` }, "cluster kind", Fail, "unset CLUSTER"},
		{"offline with modules missing", func(f *Facts) {
			f.ProxyReached, f.ProxyDetail, f.LessonsErr = false, "dial tcp: no route", "module lookup disabled"
		}, "module proxy", Fail, "make kit-install"},
		{"offline with everything downloaded", func(f *Facts) { f.ProxyReached = false }, "module proxy", Warn, "already downloaded"},
		{"local cluster not built", func(f *Facts) { f.BinariesMissing = []string{"etcd"} }, "cluster binaries", Fail, "make prepare"},
		{"kind without its image", func(f *Facts) {
			f.Engine = cluster.Engine{Name: "podman", Installed: true, Answers: true}
			f.ClusterKind, f.ClusterNeeds = "kind", cluster.NeedsOf(cluster.Kind)
		}, "kind node image", Fail, "make kind-pull"},
		{"old cluster builds", func(f *Facts) {
			f.OldBuilds = []binaries.Stale{{Path: "/c/kubernetes-v1.36.0-recipe4", Bytes: 240 << 20}, {Path: "/c/x/workshop-kube-0123", Bytes: 118 << 20}}
		}, "old cluster builds", Warn, "2 old builds, 358 MB"},
		{"no C compiler for -race", func(f *Facts) {
			f.RaceLessons, f.CgoReady, f.CgoDetail = []string{"13"}, false, "no C compiler: go env CC names gcc"
		}, "race detector", Fail, "apt-get install gcc"},
		{"cold lessons", func(f *Facts) { f.StalePkgs = 120 }, "lesson test binaries", Warn, "120 packages"},
		{"cluster down", func(f *Facts) { f.ClusterUp, f.UpDetail = false, "connection refused" }, "cluster", Warn, "make cluster"},
		{"foreign context", func(f *Facts) { f.Context = "prod-eu" }, "kubeconfig", Fail, "prod-eu"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := ready()
			tc.breaks(&f)
			r := Evaluate(f)
			c := find(t, r, tc.check)
			if c.Status != tc.status {
				t.Fatalf("%s: want %s, got %s (%s)", tc.check, tc.status, c.Status, c.Detail)
			}
			if !strings.Contains(c.Detail+" "+c.Fix, tc.words) {
				t.Errorf("%s: want %q in %q / %q", tc.check, tc.words, c.Detail, c.Fix)
			}
			if c.Status != OK && c.Fix == "" && tc.status == Fail {
				t.Errorf("%s fails without a fix", tc.check)
			}
			if r.Ready != (tc.status != Fail) {
				t.Errorf("ready=%v with a %s", r.Ready, tc.status)
			}
		})
	}
}

func TestKindLaptopNeedsNoClusterBinaries(t *testing.T) {
	f := ready()
	f.Engine = cluster.Engine{Name: "docker", Installed: true, Answers: true}
	f.ClusterKind, f.ClusterNeeds = "kind", cluster.NeedsOf(cluster.Kind)
	f.KindImagePresent, f.BinariesMissing = true, []string{"etcd", "kube-apiserver"}
	r := Evaluate(f)
	if c := find(t, r, "cluster binaries"); c.Status != Warn {
		t.Errorf("a kind laptop without local binaries should only warn, got %s", c.Status)
	}
	if !r.Ready {
		t.Errorf("a kind laptop with its image is ready")
	}
}

func TestKitInUseCountsAsAProxy(t *testing.T) {
	f := ready()
	f.ProxyReached, f.KitInUse, f.ProxyDetail, f.LessonsErr = false, true, "/ws/.kit/modules", ""
	if c := find(t, Evaluate(f), "module proxy"); c.Status != OK || !strings.Contains(c.Detail, "offline kit") {
		t.Errorf("got %+v", c)
	}
}

func TestReportPrintsVerdictAndJSON(t *testing.T) {
	f := ready()
	f.Git = false
	r := Evaluate(f)
	var text, js strings.Builder
	r.Print(&text)
	if !strings.Contains(text.String(), "FAIL  git") || !strings.Contains(text.String(), "Not ready: 1 check(s) failed") {
		t.Errorf("text report:\n%s", text.String())
	}
	if err := r.PrintJSON(&js); err != nil || !strings.Contains(js.String(), `"ready": false`) || !strings.Contains(js.String(), `"fix": "install it`) {
		t.Errorf("json report (%v):\n%s", err, js.String())
	}
}

func TestProbeProxyKinds(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		goproxy      string
		kit, reached bool
		detail       string
	}{
		{"off", false, false, "GOPROXY=off"},
		{"direct", false, false, "not probed"},
		{"file://" + dir + ",off", true, false, dir},
		{"file:///nowhere/kit", false, false, "missing"},
	}
	for _, tc := range cases {
		kit, reached, detail := probeProxy(t.Context(), tc.goproxy)
		if kit != tc.kit || reached != tc.reached || !strings.Contains(detail, tc.detail) {
			t.Errorf("%s: got kit=%v reached=%v %q", tc.goproxy, kit, reached, detail)
		}
	}
}

// One real run on this machine: Gather only reads, so it is safe anywhere; what it finds varies,
// so only the shape is checked.
func TestGatherOnThisMachine(t *testing.T) {
	root, err := workspace.Root()
	if err != nil {
		t.Fatal(err)
	}
	f := Gather(t.Context(), root, "")
	if f.GoVersion == "" || f.GoWanted == "?" || f.Lessons == 0 {
		t.Errorf("Gather missed the basics: %+v", f)
	}
	r := Evaluate(f)
	var out strings.Builder
	r.Print(&out)
	t.Logf("this machine:\n%s", out.String())
}

func TestCountStaleLeavesOutTestMainsAndPlainVariants(t *testing.T) {
	listing := "k8s.io/a\ta\tfalse\n" +
		"workshop.local/lessons/03\tinformers\ttrue\n" + // only its test variant is built
		"workshop.local/lessons/03 [workshop.local/lessons/03.test]\tinformers\tfalse\n" +
		"workshop.local/lessons/03.test\tmain\ttrue\n" +
		"sigs.k8s.io/b\tb\ttrue\n"
	if n := countStale(listing); n != 1 {
		t.Errorf("want 1 stale package (sigs.k8s.io/b), got %d", n)
	}
}

// TestByTestFlagsAsksGoListAsMakeCheckBuilds: lesson 13's specs build with -race, which compiles
// another variant of every package; listing it without -race would count packages never built.
func TestByTestFlagsAsksGoListAsMakeCheckBuilds(t *testing.T) {
	groups := byTestFlags([]lessons.Lesson{
		{Name: "01-gvk-gvr"},
		{Name: "11-kubebuilder", Manifest: lessons.Manifest{Tags: []string{"workshop"}}},
		{Name: "12-webhooks"},
		{Name: "13-observability", Manifest: lessons.Manifest{Race: true}},
	})
	want := map[string][]string{
		"":               {"./lessons/01-gvk-gvr", "./lessons/12-webhooks"},
		"-tags=workshop": {"./lessons/11-kubebuilder"},
		"-race":          {"./lessons/13-observability"},
	}
	if !maps.EqualFunc(groups, want, slices.Equal) {
		t.Errorf("got %v, want %v", groups, want)
	}
}
