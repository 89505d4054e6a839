package lessons

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestATimedOutSpecInAnOverlaidRunFailsByName builds testdata/overlaid with its longer
// replacement file overlaid, the way make test proves solutions and wrong solutions, and runs a
// spec that blocks in that file past its SpecTimeout. Ginkgo quotes the source of the spec's
// goroutine when a spec times out; reading the starter's lines at the replacement's line numbers
// used to panic in its fetchSource. The run must fail the spec by name, and nothing may panic.
func TestATimedOutSpecInAnOverlaidRunFailsByName(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Ginkgo suite")
	}
	pkg, _ := filepath.Abs(filepath.Join("testdata", "overlaid"))
	tmp := t.TempDir()
	overlay := filepath.Join(tmp, "overlay.json")
	replace := map[string]string{filepath.Join(pkg, "wait.go"): filepath.Join(pkg, "wait.go.txt")}
	if err := WriteOverlay(replace, overlay); err != nil {
		t.Fatal(err)
	}
	binary := filepath.Join(tmp, "overlaid.test")
	build := exec.Command("go", "test", "-c", "-o", binary, "-overlay="+overlay, "./testdata/overlaid")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the suite: %v\n%s", err, out)
	}
	run := exec.Command(binary, "-ginkgo.no-color", "-ginkgo.grace-period=1s")
	run.Dir = pkg
	out, err := run.CombinedOutput()
	text := string(out)
	if err == nil {
		t.Fatalf("the suite passed; its one spec should have timed out:\n%s", text)
	}
	if strings.Contains(text, "panic") || strings.Contains(text, "slice bounds out of range") {
		t.Fatalf("the run panicked instead of failing the spec:\n%s", text)
	}
	if !strings.Contains(text, "[TIMEDOUT]") || !strings.Contains(text, "waits in the overlaid file") {
		t.Fatalf("want the spec reported [TIMEDOUT] by name:\n%s", text)
	}
}
