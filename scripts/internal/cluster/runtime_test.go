package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workshop.local/scripts/internal/cluster/kind"
	"workshop.local/scripts/workspace"
)

// testCluster is a cluster folder in a scratch workspace, with the engine already "detected"
// (a fake: nothing on this machine is asked) and the binary cache in a scratch folder, so that
// no process of a real cluster on this machine is mistaken for this one's.
func testCluster(t *testing.T, wanted string, engine kind.Engine) (*Cluster, *strings.Builder) {
	t.Setenv("WORKSHOP_CACHE", t.TempDir())
	t.Setenv("WORKSHOP_KIND_CLUSTER", "ctrl-workshop-unit")
	root := t.TempDir()
	out := &strings.Builder{}
	return &Cluster{root: root, dir: filepath.Join(root, ".cluster"), wanted: wanted, out: out,
		engine: engine, detected: true}, out
}

var stoppedDocker = kind.Engine{Name: "docker", Installed: true, Detail: "Cannot connect to the Docker daemon"}

func TestValidNamesEveryRegisteredRuntime(t *testing.T) {
	for _, ok := range []string{"", "auto", "kind", "local", "LOCAL"} {
		if err := Valid(ok); err != nil {
			t.Errorf("Valid(%q) = %v, want nil", ok, err)
		}
	}
	err := Valid("bogus")
	if err == nil || !strings.Contains(err.Error(), `CLUSTER="bogus" is not a runtime of the workshop cluster: use auto, kind or local`) {
		t.Errorf("Valid(bogus) = %v", err)
	}
}

// The kind runtime takes its own lock and records itself only once the engine answers: with a
// stopped engine, Up says why and leaves no record for status or down to act on.
func TestKindRuntimeLockStateAndStatus(t *testing.T) {
	c, out := testCluster(t, Kind, stoppedDocker)
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := c.runtimeNamed(t.Context(), Kind)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Up(t.Context()); err == nil || err.Error() != stoppedDocker.Explain() {
		t.Errorf("Up with a stopped engine = %v, want %q", err, stoppedDocker.Explain())
	}
	if _, err := os.Stat(filepath.Join(c.dir, "kind.lock")); err != nil {
		t.Errorf("Up took no lock in the cluster folder: %v", err)
	}
	if got := Recorded(c.dir); got != "" {
		t.Errorf("Up that made nothing recorded %q", got)
	}
	if r.Exists(t.Context()) || r.Active(t.Context()) || r.Status(t.Context(), out) {
		t.Error("a kind cluster without an engine exists, is active or runs")
	}
	if !strings.Contains(out.String(), stoppedDocker.Explain()) {
		t.Errorf("Status does not say why: %q", out.String())
	}
	if got := r.Context(); got != "kind-ctrl-workshop-unit" {
		t.Errorf("Context() = %q", got)
	}
	if r.HostReach() != workspace.ReachNodeNetwork {
		t.Errorf("HostReach() = %q: kind's API server runs in a container", r.HostReach())
	}
}

// The local runtime's status names each component and the API server; its down keeps the
// record and the data (a stopped local cluster is reused), unlike kind's.
func TestLocalRuntimeStatusAndDown(t *testing.T) {
	c, out := testCluster(t, Local, kind.Engine{})
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := record(c.dir, Local); err != nil {
		t.Fatal(err)
	}
	r, err := c.runtimeNamed(t.Context(), Local)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status(t.Context(), out) || r.Running(t.Context()) || r.Active(t.Context()) {
		t.Fatal("a local cluster that was never started runs")
	}
	for _, want := range []string{"etcd", "hollow-node", "API server: not answering", "`make cluster` starts the cluster again"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("Status output lacks %q:\n%s", want, out)
		}
	}
	if !r.Exists(t.Context()) {
		t.Error("a stopped local cluster is not there to reuse")
	}
	if err := r.Down(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Stopped the local cluster") || Recorded(c.dir) != Local {
		t.Errorf("Down: output %q, record %q; want the stop said and the record kept", out, Recorded(c.dir))
	}
	if r.Context() != workspace.LocalContext || r.HostReach() != workspace.ReachLoopback {
		t.Errorf("Context() = %q, HostReach() = %q", r.Context(), r.HostReach())
	}
}

// Why names the chosen runtime, its reason and the record, through the chosen runtime only.
func TestWhy(t *testing.T) {
	c, out := testCluster(t, Local, stoppedDocker)
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := record(c.dir, Local); err != nil {
		t.Fatal(err)
	}
	if err := c.Why(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := "CLUSTER=local: the local runtime, because CLUSTER=local.\n" +
		"This workspace's cluster folder (" + c.dir + ") records a local cluster.\n"
	if out.String() != want {
		t.Errorf("Why printed\n%s\nwant\n%s", out, want)
	}
}

// Down of a recorded runtime the workspace does not know says so rather than guessing.
func TestUnknownRecordedRuntime(t *testing.T) {
	c, _ := testCluster(t, "", kind.Engine{})
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := record(c.dir, "minikube"); err != nil {
		t.Fatal(err)
	}
	if err := c.Down(t.Context()); err == nil || !strings.Contains(err.Error(), `records a "minikube" cluster`) {
		t.Errorf("Down = %v", err)
	}
}
