package harness

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"
)

// TestLearnerPanicsAndHangsFailOnlyTheirSpec runs the fixture suite in testdata/robustness and
// checks that a panic fails its own spec with the panic's message, a hang fails at its timeout
// plus the harness's grace period, and the specs after each still run.
func TestLearnerPanicsAndHangsFailOnlyTheirSpec(t *testing.T) {
	report := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command("go", "test", "-count=1", "./testdata/robustness", "-ginkgo.json-report="+report)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the fixture suite should fail; output:\n%s", out)
	}
	specs := readSpecs(t, report)

	panicked := specs["panics"]
	if panicked.State != types.SpecStatePanicked || !strings.Contains(panicked.Failure.ForwardedPanic, "nil map") {
		t.Errorf("the panicking spec: state %s, panic %q; want panicked with the panic's message", panicked.State, panicked.Failure.ForwardedPanic)
	}
	if !strings.Contains(strings.Join(panicked.Labels(), ","), "exercise-1") {
		t.Errorf("the panicking spec should carry its exercise label, has %v", panicked.Labels())
	}
	hung := specs["hangs, ignoring its context"]
	if hung.State != types.SpecStateTimedout {
		t.Errorf("the hanging spec: state %s, want timedout", hung.State)
	}
	if limit := time.Second + gracePeriod + 5*time.Second; hung.RunTime > limit {
		t.Errorf("the hanging spec took %s; with the harness's grace period it should end within %s", hung.RunTime, limit)
	}
	for _, after := range []string{"still runs after the panic", "still runs after the hang"} {
		if specs[after].State != types.SpecStatePassed {
			t.Errorf("%q: state %s, want passed: one learner's bug must not stop the run", after, specs[after].State)
		}
	}
}

func readSpecs(t *testing.T, path string) map[string]types.SpecReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var reports []types.Report
	if err := json.Unmarshal(data, &reports); err != nil {
		t.Fatal(err)
	}
	specs := map[string]types.SpecReport{}
	for _, r := range reports {
		for _, s := range r.SpecReports {
			if s.LeafNodeType == types.NodeTypeIt {
				specs[s.LeafNodeText] = s
			}
		}
	}
	return specs
}
