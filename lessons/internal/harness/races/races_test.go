package races

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// TestARaceFailsItsSpec runs the fixture suite in testdata/race under the race detector and
// checks that the racing spec is reported failed with the harness's message, while the specs
// before and after it pass: without the harness the report would say every spec passed.
func TestARaceFailsItsSpec(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the harness with -race")
	}
	report := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command("go", "test", "-race", "-count=1", "./testdata/race", "-ginkgo.json-report="+report)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the fixture suite should fail; output:\n%s", out)
	}
	specs := readSpecs(t, report)
	raced := specs["races"]
	if raced.State != types.SpecStateFailed || !strings.Contains(raced.Failure.Message, "race detector") {
		t.Errorf("the racing spec: state %s, message %q; want failed by the race detector", raced.State, raced.Failure.Message)
	}
	for _, other := range []string{"passes before the race", "passes after the race"} {
		if specs[other].State != types.SpecStatePassed {
			t.Errorf("%q: state %s, want passed: a race belongs to the spec it happened in", other, specs[other].State)
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
			specs[s.LeafNodeText] = s
		}
	}
	return specs
}
