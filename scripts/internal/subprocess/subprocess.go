// Package subprocess starts the programs the tool runs for a check (go builds, test binaries,
// generators) so that none outlives the check that started it:
//
//   - each runs in a process group of its own, so that ending it ends what it started too (a go
//     build's compilers and linker, go test's test binary);
//   - a cancelled context ends the group politely first (SIGINT: Ginkgo interrupts the running
//     spec and runs its cleanup, which deletes what the spec created), then for good (SIGKILL)
//     after Grace;
//   - on Linux the kernel sends SIGTERM to the program when the tool dies, however it dies
//     (kill -9 included), and Ginkgo cleans up on SIGTERM as on SIGINT.
//
// Being in its own group also means a terminal's Ctrl-C reaches only the tool, which then ends
// the group as above: one path for every way a check can be stopped.
package subprocess

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Grace is how long a program has after SIGINT to end by itself before its group is killed: an
// interrupted spec's cleanup (a namespace deleted, a manager stopped) fits well within it.
const Grace = 10 * time.Second

// Command is exec.CommandContext for a program that must end with ctx, whole.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.SysProcAttr = ownGroup()
	cmd.Cancel = func() error { return endGroup(cmd.Process.Pid, Grace) }
	// Wait returns at most this long after the cancel, even if a grandchild holds the output
	// pipes open; by then endGroup has killed the group.
	cmd.WaitDelay = Grace + time.Second
	return cmd
}

// endGroup sends SIGINT to the process group pgid and, if anything of it is left after grace,
// SIGKILL. It returns at once: Wait sees the program end.
func endGroup(pgid int, grace time.Duration) error {
	err := syscall.Kill(-pgid, syscall.SIGINT)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	go func() {
		deadline := time.Now().Add(grace)
		for time.Now().Before(deadline) {
			if syscall.Kill(-pgid, 0) != nil {
				return // the whole group is gone
			}
			time.Sleep(50 * time.Millisecond)
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}()
	return err
}
