package proof

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/rest"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/subprocess"
	"workshop.local/scripts/leftovers"
	"workshop.local/scripts/workspace"
)

// A learner stops a check in the middle (Ctrl-C, a closed terminal, kill -9), and nothing of it
// may stay: no process (lesson 11's make run and its manager), no listener, no namespace, no
// admission object (lesson 12's webhooks). A lesson that starts such things declares it in
// lesson.yaml (interrupt), and make test runs its solution's specs twice, stopping them once
// with the tool's own Ctrl-C path and once with kill -9 of the spec process, which runs no
// cleanup at all. Processes must die by themselves either way; cluster objects left by kill -9
// are for the next check to sweep, which the proof does as the next check would.

// interruptWays are the two ways a run is stopped.
var interruptWays = []struct {
	name string
	stop func(cancel context.CancelFunc, pid int)
}{
	{"Ctrl-C", func(cancel context.CancelFunc, _ int) { cancel() }},
	{"kill -9", func(_ context.CancelFunc, pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }},
}

const (
	startedWithin   = 4 * time.Minute  // until the run has started what the lesson says (make run compiles the manager)
	leftAfterWithin = 90 * time.Second // until everything is gone (a namespace's deletion takes seconds)
)

func (t *tester) interruptCheck(l lessons.Lesson) check {
	i := l.Manifest.Interrupt
	return check{"lesson " + l.Number + ": a run stopped mid-way (Ctrl-C, kill -9) leaves no process, listener, namespace or admission object", func(ctx context.Context) (string, error) {
		if !canInspectProcesses {
			return "skipped: the proof reads Linux's /proc", nil
		}
		cfg, err := workspace.LoadConfig()
		if err != nil {
			return "", err
		}
		dir := filepath.Join(t.scratch, "interrupt", l.Name)
		overlay, err := l.WriteOverlayFile(t.scratch)
		if err != nil {
			return "", err
		}
		binary := filepath.Join(dir, l.Name+".test")
		if err := withBuildSlot(ctx, func() error { return specrun.Compile(ctx, l, overlay, binary) }); err != nil {
			return "", err
		}
		defer os.Remove(binary)
		var said []string
		for _, way := range interruptWays {
			run := interruptRun{lesson: l, interrupt: *i, cfg: cfg, dir: dir, overlay: overlay, binary: binary}
			summary, err := run.prove(ctx, way.name, way.stop)
			if err != nil {
				return "", fmt.Errorf("stopped with %s: %w", way.name, err)
			}
			said = append(said, way.name+": "+summary)
		}
		return strings.Join(said, "; "), nil
	}}
}

// interruptRun is one run of the solution's specs, stopped once the lesson's condition holds.
type interruptRun struct {
	lesson    lessons.Lesson
	interrupt lessons.Interrupt
	cfg       *rest.Config
	dir       string
	overlay   string
	binary    string
}

func (r interruptRun) prove(ctx context.Context, way string, stop func(context.CancelFunc, int)) (string, error) {
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return "", err
	}
	logPath := filepath.Join(r.dir, strings.ReplaceAll(way, " ", "")+".log")
	log, err := os.Create(logPath)
	if err != nil {
		return "", err
	}
	defer log.Close()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd, err := specrun.Run{Lesson: r.lesson, Exercise: r.interrupt.Exercise, OverlayFile: r.overlay, Output: log,
		ExtraArgs: []string{"-ginkgo.no-color"}}.Command(runCtx, r.binary, filepath.Join(r.dir, "report.json"))
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	pid := cmd.Process.Pid

	started, err := r.waitUntilStarted(ctx, pid, exited)
	if err != nil {
		return "", fmt.Errorf("%w (log: %s)", err, logPath)
	}
	processes, _ := processTree(pid)
	ports := listeningPorts(processes)
	stop(cancel, pid)
	select {
	case <-exited:
	case <-time.After(subprocess.Grace + 5*time.Second):
		return "", fmt.Errorf("the spec process did not end after it was stopped (log: %s)", logPath)
	}
	// The next check's harness.Connect (or make cluster) sweeps what a dead run left.
	_ = leftovers.SweepAbandoned(ctx, r.cfg, func(string, ...any) {})
	if left := r.waitUntilGone(ctx, pid, processes, ports); left != "" {
		return "", fmt.Errorf("after %s, left behind:%s\n(log: %s)", started, left, logPath)
	}
	return fmt.Sprintf("stopped after %s: %d processes, %d listeners, nothing left", started, len(processes), len(ports)), nil
}

// waitUntilStarted waits until the run has started what the lesson's interrupt says, and
// says what that was.
func (r interruptRun) waitUntilStarted(ctx context.Context, pid int, exited <-chan error) (string, error) {
	deadline := time.Now().Add(startedWithin)
	for time.Now().Before(deadline) {
		switch r.interrupt.After {
		case lessons.AfterListening:
			tree, _ := processTree(pid)
			if ports := listeningPorts(tree[1:]); len(ports) > 0 {
				return fmt.Sprintf("a process it started listened (%s)", describePorts(ports)), nil
			}
		case lessons.AfterAdmission:
			if objects := r.owned(ctx, pid); slices.ContainsFunc(objects, isAdmission) {
				return "it made admission objects", nil
			}
		}
		select {
		case err := <-exited:
			return "", fmt.Errorf("the specs ended (%v) before the run had started what lesson.yaml's interrupt.after says (%s)", err, r.interrupt.After)
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return "", fmt.Errorf("the run had not started what lesson.yaml's interrupt.after says (%s) within %s", r.interrupt.After, startedWithin)
}

// waitUntilGone waits until none of processes runs, nothing listens on ports and no object of the
// run's owner is left; otherwise it lists what is.
func (r interruptRun) waitUntilGone(ctx context.Context, pid int, processes []int, ports map[int]int) string {
	var left string
	for deadline := time.Now().Add(leftAfterWithin); time.Now().Before(deadline); {
		left = ""
		for _, p := range stillRunning(processes) {
			left += fmt.Sprintf("\n  process %d: %s", p, commandLine(p))
		}
		for _, port := range listening(ports) {
			left += fmt.Sprintf("\n  a listener on port %d", port)
		}
		for _, o := range r.owned(ctx, pid) {
			left += fmt.Sprintf("\n  %s %s", o.Kind, o.Name)
		}
		if left == "" {
			return ""
		}
		select {
		case <-ctx.Done():
			return left
		case <-time.After(500 * time.Millisecond):
		}
	}
	return left
}

// owned is the cluster objects the spec process pid made: their owner id starts with its pid.
func (r interruptRun) owned(ctx context.Context, pid int) []leftovers.Object {
	all, err := leftovers.Owned(ctx, r.cfg)
	if err != nil && !errors.Is(err, context.Canceled) && len(all) == 0 {
		return nil
	}
	var mine []leftovers.Object
	for _, o := range all {
		if strings.HasPrefix(o.Owner, fmt.Sprintf("%d-", pid)) {
			mine = append(mine, o)
		}
	}
	return mine
}

func isAdmission(o leftovers.Object) bool {
	return strings.Contains(o.Kind, "Webhook") || strings.Contains(o.Kind, "AdmissionPolicy")
}

func describePorts(ports map[int]int) string {
	var s []string
	for port, pid := range ports {
		s = append(s, fmt.Sprintf("%d by %s", port, filepath.Base(strings.Fields(commandLine(pid) + " ?")[0])))
	}
	slices.Sort(s)
	return strings.Join(s, ", ")
}
