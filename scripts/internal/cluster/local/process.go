package local

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// process is one running program of the cluster, tracked by a pid file so that any later
// command (status, down, a second up) can find it, and can tell a stale pid file from a live one.
type process struct {
	name    string // component name, e.g. "kube-apiserver"
	runDir  string // folder of pid files
	logPath string
}

func (p process) pidFile() string { return filepath.Join(p.runDir, p.name+".pid") }

// start launches bin in its own session, so it outlives the `make cluster` that started it and
// a Ctrl-C in the learner's terminal does not reach it. Output goes to the component's log.
func (p process) start(bin string, args []string, env []string) error {
	// Record the resolved path: that is what /proc/<pid>/exe shows when we check the pid later.
	bin = resolve(bin)
	logFile, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "\n=== %s starting at %s: %s %s\n", p.name, time.Now().Format(time.RFC3339), bin, strings.Join(args, " "))
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", p.name, err)
	}
	// Reap the child if it exits while this command still runs, so it never lingers as a zombie.
	go func() { _ = cmd.Wait() }()
	record := strconv.Itoa(cmd.Process.Pid) + "\n" + bin + "\n" + fingerprint(bin, args, env) + "\n"
	return os.WriteFile(p.pidFile(), []byte(record), 0o644)
}

// fingerprint digests a program, its flags and its environment, so that a later `make cluster`
// can tell a process started by an older version of the workspace (other flags, another binary)
// from one it would start itself, and restart the former.
func fingerprint(bin string, args, env []string) string {
	h := sha256.Sum256([]byte(resolve(bin) + "\x00" + strings.Join(args, "\x00") + "\x00\x00" + strings.Join(env, "\x00")))
	return hex.EncodeToString(h[:8])
}

// startedWith returns the fingerprint recorded when the process started ("" if none).
func (p process) startedWith() string {
	data, err := os.ReadFile(p.pidFile())
	if err != nil {
		return ""
	}
	if fields := strings.Fields(string(data)); len(fields) >= 3 {
		return fields[2]
	}
	return ""
}

// resolve returns the path without symlinks: what /proc/<pid>/exe shows.
func resolve(bin string) string {
	if resolved, err := filepath.EvalSymlinks(bin); err == nil {
		return resolved
	}
	return bin
}

// pid returns the recorded pid if that process is alive and still runs the binary we started;
// 0 when there is no pid file, the process is gone, or the pid now belongs to another program
// (after a crash or a reboot pids are reused).
func (p process) pid() int {
	data, err := os.ReadFile(p.pidFile())
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pid, err := strconv.Atoi(fields[0])
	if err != nil || pid <= 0 || !alive(pid) || !runs(pid, fields[1]) {
		return 0
	}
	return pid
}

// stop sends SIGTERM, waits up to grace for the process to exit, then SIGKILLs it. A stale pid
// file is just removed.
func (p process) stop(grace time.Duration) error {
	defer os.Remove(p.pidFile())
	pid := p.pid()
	if pid == 0 {
		return nil
	}
	return stopPid(p.name, pid, grace)
}

// stopPid sends SIGTERM to pid, waits up to grace for it to exit, then SIGKILLs it.
func stopPid(name string, pid int, grace time.Duration) error {
	_ = syscall.Kill(pid, syscall.SIGTERM)
	if waitGone(pid, grace) {
		return nil
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	if waitGone(pid, 5*time.Second) {
		return nil
	}
	return fmt.Errorf("%s (pid %d) did not exit after SIGKILL", name, pid)
}

func waitGone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return !alive(pid)
}

// alive is true for a live process that is not a zombie.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc (macOS): kill(0) is all we can know
	}
	// The state letter follows the ")" that closes the command name.
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}

// runs checks that pid executes bin, using /proc where there is one and ps elsewhere.
func runs(pid int, bin string) bool {
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err == nil {
		return strings.TrimSuffix(exe, " (deleted)") == bin
	}
	out, err := exec.Command("ps", "-p", strconv.Itoa(pid), "-o", "command=").Output()
	return err == nil && strings.HasPrefix(strings.TrimSpace(string(out)), bin)
}
