package harness

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/onsi/gomega"
)

// TestAProcessGroupEndsWithAKilledTest runs the fixture suite in testdata/killed, which starts a
// process group (sh and its child, as make run has go run and a manager) and then waits; the test
// kills the suite with SIGKILL, which runs no cleanup, and expects the whole group gone soon after.
func TestAProcessGroupEndsWithAKilledTest(t *testing.T) {
	dir := t.TempDir()
	binary, pgidFile := filepath.Join(dir, "killed.test"), filepath.Join(dir, "pgid")
	if out, err := exec.Command("go", "test", "-c", "-o", binary, "./testdata/killed").CombinedOutput(); err != nil {
		t.Fatalf("building the fixture: %v\n%s", err, out)
	}
	suite := exec.Command(binary)
	suite.Env = append(os.Environ(), "KILLED_PGID_FILE="+pgidFile)
	if err := suite.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := readPgid(t, pgidFile)
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
	if !groupRuns(pgid) {
		t.Fatalf("the fixture's process group %d is not running", pgid)
	}
	_ = suite.Process.Kill()
	_ = suite.Wait()
	g := gomega.NewWithT(t)
	g.Eventually(func() bool { return groupRuns(pgid) }).WithTimeout(3*time.Second).WithPolling(50*time.Millisecond).Should(gomega.BeFalse(),
		"the process group %d a killed test started is still running 3 s later", pgid)
}

func readPgid(t *testing.T, path string) int {
	t.Helper()
	var pgid int
	gomega.NewWithT(t).Eventually(func() error {
		data, err := os.ReadFile(path)
		if err != nil || !strings.HasSuffix(string(data), "\n") {
			return fmt.Errorf("no whole line in %s yet", path)
		}
		pgid, err = strconv.Atoi(strings.TrimSpace(string(data)))
		return err
	}).WithTimeout(time.Minute).WithPolling(50*time.Millisecond).Should(gomega.Succeed(), "the fixture never wrote its process group")
	return pgid
}

// groupRuns says whether a process of the group runs. A zombie does not count: an orphan's
// parent is the init process, and some (a container's) never reap.
func groupRuns(pgid int) bool {
	out, err := exec.Command("ps", "-A", "-o", "pgid=,stat=").Output()
	if err != nil {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 2 && fields[0] == strconv.Itoa(pgid) && !strings.HasPrefix(fields[1], "Z") {
			return true
		}
	}
	return false
}
