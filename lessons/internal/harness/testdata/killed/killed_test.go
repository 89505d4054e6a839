// Package killed is a fixture for process_test.go: a spec that starts a process group with
// StartProcessGroup, writes its number to $KILLED_PGID_FILE, and waits to be killed.
package killed

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	. "github.com/onsi/ginkgo/v2"

	"workshop.local/lessons/internal/harness"
)

func TestKilled(t *testing.T) { harness.RunSuite(t, "fixture: killed while its process runs") }

var _ = It("starts a process group and is killed", func(ctx SpecContext) {
	// sh, then a child of its own: like make run, then go run, then the manager.
	cmd := exec.Command("sh", "-c", "sleep 300; echo the sleep ended")
	if err := harness.StartProcessGroup(cmd); err != nil {
		Fail(err.Error())
	}
	if err := os.WriteFile(os.Getenv("KILLED_PGID_FILE"), fmt.Appendf(nil, "%d\n", cmd.Process.Pid), 0o644); err != nil {
		Fail(err.Error())
	}
	<-ctx.Done()
}, SpecTimeout(harness.Timeout))
