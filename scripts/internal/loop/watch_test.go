package loop

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/lessoncopy"
	"workshop.local/scripts/workspace"
)

// These tests drive `make watch` as a learner would, against the workshop cluster, on a scratch
// copy of lesson 01 (the real lesson files are never touched): in a real terminal (tmux: keys
// sent, the pane read back), and through a pipe. They skip when tmux or the cluster is missing;
// `make test` starts the cluster before the tooling's tests, so there they run.

// TestWatchInATerminal edits exercise 1 to its solution and expects the pass and the move to
// exercise 2, then presses h (a hint), r and y (a reset, with a backup) and q.
func TestWatchInATerminal(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	ws := scratchWorkspace(t)
	socket := fmt.Sprintf("watch-test-%d", os.Getpid())
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	shell := fmt.Sprintf("cd %s && env %s %s watch 01; echo WATCH-EXITED; sleep 600", ws.dir, strings.Join(ws.env, " "), ws.tool)
	tmux("new-session", "-d", "-s", "watch", "-x", "120", "-y", "50", shell)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", socket, "kill-server").Run() })
	pane := func() string { return tmux("capture-pane", "-p", "-t", "watch") }
	key := func(k string) { tmux("send-keys", "-t", "watch", "-l", k) }

	waitFor(t, pane, "✗ exercise 1: 0 of", "the untouched exercise 1 failing")
	if strings.Contains(pane(), "\x1b[3") {
		t.Error("NO_COLOR is set, yet the screen has colour codes")
	}
	ws.copy(t, "solutions/01-gvk-gvr/parse.go", "lessons/01-gvk-gvr/parse.go")
	waitFor(t, pane, "Exercise 1 passes. On to exercise 2.", "the pass of exercise 1")
	waitFor(t, pane, "✗ exercise 2: 0 of", "exercise 2 checked next")

	key("h")
	waitFor(t, pane, "Hint 1 of 3", "the first hint of exercise 2")

	path := filepath.Join(ws.dir, "lessons/01-gvk-gvr/path.go")
	starter, _ := os.ReadFile(path)
	if err := os.WriteFile(path, append(bytes.Clone(starter), "// my attempt\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	key("r")
	waitFor(t, pane, "Press y to reset", "the reset question")
	key("y")
	waitFor(t, pane, "Reset path.go to the starter.", "the reset of exercise 2")
	if now, _ := os.ReadFile(path); !bytes.Equal(now, starter) {
		t.Error("path.go is not the starter after the reset")
	}
	backups, _ := filepath.Glob(filepath.Join(ws.dir, ".progress/backups/01-gvk-gvr-exercise-2-*/path.go"))
	if len(backups) != 1 {
		t.Errorf("want one backup of path.go, found %v", backups)
	}

	key("q")
	waitFor(t, pane, "WATCH-EXITED", "watch to quit on q")
}

// TestWatchWithoutATerminal proves that piped, watch prints plain lines and reads no keys.
func TestWatchWithoutATerminal(t *testing.T) {
	watchPlainly(t, nil, "✗ exercise 1: 0 of", "checked in")
}

// With WORKSHOP_LANG=zh-CN, the same lines in Simplified Chinese (issue 40).
func TestWatchSpeaksChinese(t *testing.T) {
	watchPlainly(t, []string{"WORKSHOP_LANG=zh-CN"}, "✗ 练习 1：0/", "保存后")
}

// watchPlainly runs make watch on lesson 01's exercise 1 with its output piped, and waits for
// the failing verdict, then, after the solution is saved in place, for the line that says how
// long the check took; an interrupt must end it cleanly, with no escape codes in its output.
func watchPlainly(t *testing.T, env []string, verdict, checked string) {
	ws := scratchWorkspace(t)
	cmd := exec.Command(ws.tool, "watch", "01", "1")
	cmd.Dir, cmd.Env = ws.dir, append(append(withoutLanguage(os.Environ()), ws.env...), env...)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitFor(t, out.String, verdict, "a plain line with exercise 1's verdict")
	ws.copy(t, "solutions/01-gvk-gvr/parse.go", "lessons/01-gvk-gvr/parse.go")
	waitFor(t, out.String, checked, "the check after the save")
	_ = cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Errorf("watch did not end cleanly on an interrupt: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String(), "\x1b[") {
		t.Errorf("piped output holds escape codes:\n%q", out.String())
	}
}

// scratch is a workspace holding a copy of lesson 01 in its own git repository, so watch can
// edit, reset and record progress there without touching the real workspace.
type scratch struct {
	dir  string
	tool string   // the workshop binary
	env  []string // the real cluster's folder and kubeconfig, NO_COLOR
}

func scratchWorkspace(t *testing.T) scratch {
	t.Helper()
	root, err := workspace.Root()
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig := os.Getenv("LESSONS_KUBECONFIG")
	if kubeconfig == "" {
		kubeconfig = workspace.KubeconfigPath(workspace.ClusterDir(root))
	}
	if _, err := os.Stat(kubeconfig); err != nil {
		t.Skipf("no workshop cluster (%s): make test starts one", kubeconfig)
	}
	dir := t.TempDir()
	ws := scratch{dir: dir, tool: filepath.Join(dir, ".cache", "bin", "workshop"), env: []string{
		"LESSONS_KUBECONFIG=" + kubeconfig, "WORKSHOP_CLUSTER_DIR=" + workspace.ClusterDir(root),
		"WORKSHOP_RUNNING_CLUSTER=1", "NO_COLOR=1"}}
	runIn(t, root, "go", "build", "-o", ws.tool, "./scripts/workshop")
	lesson, err := lessons.Find(root, "01")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lessoncopy.Make(root, dir, lesson); err != nil {
		t.Fatal(err)
	}
	_ = os.RemoveAll(filepath.Join(dir, "solutions/01-gvk-gvr/wrong"))
	runIn(t, dir, "git", "init", "-q")
	runIn(t, dir, "git", "add", "lessons", "solutions")
	runIn(t, dir, "git", "-c", "user.name=test", "-c", "user.email=test@workshop.local", "commit", "-q", "-m", "starter")
	return ws
}

func (s scratch) copy(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.dir, from))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.dir, to), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func runIn(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// waitFor polls read until it holds want; the first build of the lesson takes the longest.
func waitFor(t *testing.T, read func() string, want, what string) {
	t.Helper()
	gomega.NewWithT(t).Eventually(read).WithTimeout(3*time.Minute).WithPolling(200*time.Millisecond).
		Should(gomega.ContainSubstring(want), "waited 3 minutes for %s", what)
}

// syncBuffer is a bytes.Buffer a process writes while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
