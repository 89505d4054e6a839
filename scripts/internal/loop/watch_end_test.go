package loop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"workshop.local/scripts/workspace"
)

// A watch ends with its terminal (issue: eleven watchers left by closed terminals re-checked
// every save at once). These tests start `make watch` as a learner does, in tmux, then take the
// terminal away or send SIGHUP, and look for anything of the scratch workspace still running:
// make, the tool, a go build, a test binary. Each is started just after a save, so a check is
// usually in flight when the terminal goes.

// TestWatchEndsWithItsTerminal closes the terminal (tmux kill-session: the pseudo-terminal is
// hung up, as a closed window or a dropped ssh connection does).
func TestWatchEndsWithItsTerminal(t *testing.T) {
	// make is the terminal's first process, as in `tmux new-session 'make watch LESSON=01'`: the
	// hang-up's SIGHUP goes to make alone, which waits for the tool, which gets no signal at all.
	ws, tm := watchInTmux(t, "exec")
	tm.run("kill-session", "-t", "watch")
	ws.nothingLeft(t, 2*time.Second, "the terminal was closed")
}

// TestWatchEndsOnHangup sends SIGHUP to the tool alone, the terminal still there.
func TestWatchEndsOnHangup(t *testing.T) {
	ws, tm := watchInTmux(t, "")
	pid := ws.toolPid(t)
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("WATCH-EXITED", "make watch to end on SIGHUP")
	ws.nothingLeft(t, 2*time.Second, "the tool got SIGHUP")
}

// TestOneWatchPerWorkspace: a second watch says where the first is and exits 1; after the first
// is killed with SIGKILL, which runs no cleanup, a new watch starts.
func TestOneWatchPerWorkspace(t *testing.T) {
	ws := scratchWorkspace(t)
	first, out := ws.startWatch(t)
	waitFor(t, out.String, "✗ exercise 1: 0 of", "the first watch's verdict")

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	second := exec.CommandContext(ctx, ws.tool, "watch", "01")
	second.Dir, second.Env = ws.dir, append(os.Environ(), ws.env...)
	msg, err := second.CombinedOutput()
	if exit := (*exec.ExitError)(nil); !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("a second watch should exit 1, got %v:\n%s", err, msg)
	}
	want := fmt.Sprintf("already running in another terminal (lesson 01, pid %d)", first.Process.Pid)
	if !strings.Contains(string(msg), want) {
		t.Errorf("a second watch should say %q, said:\n%s", want, msg)
	}

	_ = first.Process.Kill()
	_ = first.Wait()
	_, out = ws.startWatch(t)
	waitFor(t, out.String, "✗ exercise 1: 0 of", "a new watch after the first was killed with SIGKILL")
}

// startWatch starts the tool's watch of lesson 01 with its output piped.
func (s scratch) startWatch(t *testing.T) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(s.tool, "watch", "01")
	cmd.Dir, cmd.Env = s.dir, append(os.Environ(), s.env...)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, out
}

// tmuxServer is a tmux server of the test's own.
type tmuxServer struct {
	t      *testing.T
	socket string
}

func (tm tmuxServer) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (tm tmuxServer) waitFor(want, what string) {
	tm.t.Helper()
	waitFor(tm.t, func() string { return tm.run("capture-pane", "-p", "-t", "watch") }, want, what)
}

// watchInTmux runs `make watch LESSON=01` in a terminal, with the workspace's Makefile, waits for
// its first verdict, then saves a file and waits until the check that follows is under way.
// With how "exec", make replaces the terminal's shell; otherwise the shell prints WATCH-EXITED
// once make has ended, and waits.
func watchInTmux(t *testing.T, how string) (scratch, tmuxServer) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	ws := scratchWorkspace(t)
	ws.copyFromRoot(t, "Makefile")
	tm := tmuxServer{t: t, socket: fmt.Sprintf("watch-end-%d-%s", os.Getpid(), t.Name())}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", tm.socket, "kill-server").Run() })
	// GO=true: make's tools target would build the tool from the workspace's scripts/, which the
	// scratch copy does not hold; the tool is already built where make looks for it.
	shell := fmt.Sprintf("cd %s && %s env %s make GO=true watch LESSON=01; echo WATCH-EXITED; sleep 600", ws.dir, how, strings.Join(ws.env, " "))
	tm.run("new-session", "-d", "-s", "watch", "-x", "120", "-y", "50", shell)
	tm.waitFor("✗ exercise 1: 0 of", "the untouched exercise 1 failing")
	ws.copy(t, "lessons/01-gvk-gvr/parse.go", "lessons/01-gvk-gvr/parse.go") // a save
	tm.waitFor("checking exercise 1...", "the check after the save")
	return ws, tm
}

// toolPid is the pid of the workshop tool running watch in this scratch workspace.
func (s scratch) toolPid(t *testing.T) int {
	t.Helper()
	for _, p := range s.processes() {
		if strings.HasPrefix(p.command, s.tool+" watch") {
			return p.pid
		}
	}
	t.Fatalf("no %s watch is running", s.tool)
	return 0
}

// nothingLeft waits up to within for every process of the scratch workspace to be gone, and
// names those that are not.
func (s scratch) nothingLeft(t *testing.T, within time.Duration, after string) {
	t.Helper()
	var left []process
	gone := func() bool { left = s.running(); return len(left) == 0 }
	timedOut := false // the failure below names the processes, not Gomega's "expected true"
	g := gomega.NewGomega(func(string, ...int) { timedOut = true })
	if g.Eventually(gone, within, 50*time.Millisecond).Should(gomega.BeTrue()); !timedOut {
		return
	}
	var b strings.Builder
	for _, p := range left {
		fmt.Fprintf(&b, "\n  %d %s", p.pid, p.command)
	}
	t.Errorf("%v after %s, these are still running:%s", within, after, b.String())
}

// running is every process that works in the scratch workspace: make, the tool, its builds and
// test binaries; not the test's own tmux shell, which waits on purpose.
func (s scratch) running() []process {
	var left []process
	for _, p := range s.processes() {
		if !strings.Contains(p.command, "WATCH-EXITED") {
			left = append(left, p)
		}
	}
	return left
}

type process struct {
	pid     int
	command string
}

// processes lists the processes whose command line names the scratch workspace.
func (s scratch) processes() []process {
	out, err := exec.Command("ps", "-axww", "-o", "pid=,command=").Output()
	if err != nil {
		return nil
	}
	var found []process
	for _, line := range strings.Split(string(out), "\n") {
		var p process
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "%d", &p.pid); err != nil {
			continue
		}
		_, p.command, _ = strings.Cut(strings.TrimSpace(line), " ")
		if strings.Contains(p.command, s.dir) && p.pid != os.Getpid() {
			found = append(found, p)
		}
	}
	return found
}

// copyFromRoot copies a file of the real workspace into the scratch one.
func (s scratch) copyFromRoot(t *testing.T, file string) {
	t.Helper()
	root, err := workspace.Root()
	if err != nil {
		t.Fatal(err)
	}
	runIn(t, root, "cp", file, filepath.Join(s.dir, file))
}
