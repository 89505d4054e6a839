package subprocess

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/onsi/gomega"
)

// The test binary doubles as the programs the tests start (SUBPROCESS_TEST_ROLE says which), so
// their signal handling is Go's own: a shell's background jobs ignore SIGINT, go's compilers
// do not.
func TestMain(m *testing.M) {
	switch os.Getenv("SUBPROCESS_TEST_ROLE") {
	case "parent": // stands for go test -c: a program with a child of its own
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), "SUBPROCESS_TEST_ROLE=child")
		if err := child.Start(); err != nil {
			os.Exit(2)
		}
		fmt.Println(child.Process.Pid)
		interrupted := make(chan os.Signal, 1)
		signal.Notify(interrupted, os.Interrupt)
		<-interrupted
		fmt.Println("interrupted")
		os.Exit(3)
	case "child", "deaf":
		if os.Getenv("SUBPROCESS_TEST_ROLE") == "deaf" {
			signal.Ignore(os.Interrupt)
			fmt.Println("deaf") // from here on SIGINT is ignored: the test may send it
		}
		// Block until the test ends it: on a signal nobody sends, so the Go runtime keeps a
		// goroutine waiting and never calls it a deadlock.
		never := make(chan os.Signal, 1)
		signal.Notify(never, syscall.SIGUSR1)
		<-never
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func role(ctx context.Context, name string) *exec.Cmd {
	cmd := Command(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), "SUBPROCESS_TEST_ROLE="+name)
	return cmd
}

// A cancelled check ends the program and what it started, politely: SIGINT first.
func TestCancelEndsTheWholeGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := role(ctx, "parent")
	out := &lines{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	grandchild := out.waitForPid(t)
	cancel()
	began := time.Now()
	_ = cmd.Wait()
	if took := time.Since(began); took > Grace/2 {
		t.Errorf("the program took %v to end after the cancel: it did not get SIGINT", took)
	}
	if !strings.Contains(out.String(), "interrupted") {
		t.Errorf("the program was not interrupted with SIGINT first (its output: %q)", out.String())
	}
	waitGone(t, -cmd.Process.Pid, fmt.Sprintf("the program's child (pid %d)", grandchild))
}

// A program that ignores SIGINT is killed, with its group, once the grace period is over.
func TestAProgramThatIgnoresTheInterruptIsKilled(t *testing.T) {
	cmd := role(context.Background(), "deaf")
	out := &lines{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	gomega.NewWithT(t).Eventually(out.String, 5*time.Second, 10*time.Millisecond).
		Should(gomega.Equal("deaf\n"), "the program never said it ignores SIGINT")
	if err := endGroup(cmd.Process.Pid, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a program that ignores SIGINT was still running 5 s after a 300 ms grace period")
	}
}

// waitGone waits until nothing answers at pid (a negative pid: a whole process group).
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	gone := func() bool { return syscall.Kill(pid, 0) != nil }
	gomega.NewWithT(t).Eventually(gone).WithTimeout(2*time.Second).WithPolling(20*time.Millisecond).Should(gomega.BeTrue(),
		"%s is still running 2 s after the program was cancelled", what)
}

// lines is the program's output, read while it runs.
type lines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lines) waitForPid(t *testing.T) int {
	t.Helper()
	pid := func() (int, error) {
		first, _, _ := strings.Cut(l.String(), "\n")
		return strconv.Atoi(first)
	}
	gomega.NewWithT(t).Eventually(pid).WithTimeout(5*time.Second).WithPolling(20*time.Millisecond).Should(gomega.BeNumerically(">", 0), "the program never printed its child's pid")
	found, _ := pid()
	return found
}
