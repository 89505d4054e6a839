package harness

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
)

// watchdogScript ends the process group $1 once its standard input closes, which happens when
// the test process that holds the pipe's other end dies, however it dies (SIGKILL included): the
// kernel closes a dead process's files. SIGINT first, as Ctrl-C would (make, go run and a
// manager stop cleanly), SIGKILL five seconds later. It ignores the signals of a terminal, which
// are the test process's business.
const watchdogScript = `trap '' INT TERM HUP
read _ || true
kill -INT -"$1" 2>/dev/null || exit 0
sleep 5
kill -KILL -"$1" 2>/dev/null
exit 0`

// StartProcessGroup starts cmd (a program a spec runs on this machine, such as lesson 11's
// `make run`) in a process group of its own, so that one signal to the group reaches everything
// it starts (make, go run, the manager), and makes sure the group does not outlive this test
// process: a watchdog ends it if the process dies before the spec's own cleanup ran (a check
// killed with SIGKILL). Stopping the group when the spec ends stays the caller's job (SIGINT to
// -cmd.Process.Pid, then wait); the watchdog is let go after the caller's cleanup.
func StartProcessGroup(cmd *exec.Cmd) error {
	GinkgoHelper()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		return err
	}
	watchdog, err := startWatchdog(cmd.Process.Pid)
	if err != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		return fmt.Errorf("could not start the watchdog that ends %s with this test: %w", cmd.Path, err)
	}
	// Registered before the caller's stop, so it runs after it (DeferCleanup runs last first):
	// by then the group has ended, and the watchdog is killed before its pipe closes, so it never
	// signals a process group number that the system may have given to someone else.
	DeferCleanup(watchdog.release)
	return nil
}

// watchdog is a running watchdogScript and the end of its pipe that keeps it waiting.
type watchdog struct {
	cmd  *exec.Cmd
	hold *os.File
}

func startWatchdog(pgid int) (*watchdog, error) {
	r, w, err := os.Pipe() // close-on-exec: no other child inherits w
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := exec.Command("sh", "-c", watchdogScript, "watchdog", fmt.Sprint(pgid))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		_ = w.Close()
		return nil, err
	}
	return &watchdog{cmd: cmd, hold: w}, nil
}

func (d *watchdog) release() {
	_ = d.cmd.Process.Kill()
	_ = d.cmd.Wait()
	_ = d.hold.Close()
}
