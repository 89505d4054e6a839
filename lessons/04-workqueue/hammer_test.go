package queues_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	queues "workshop.local/lessons/04-workqueue"
)

// Workers call a rate limiter at the same time. A limiter whose map is not guarded by its mutex
// loses counts, or stops the whole program: when the Go runtime catches two goroutines writing a
// map at once, it exits with "fatal error: concurrent map writes", which no spec can recover
// from. So the spec hammers the limiter in a child process (this test binary, run again
// with hammerEnv set) and reads what it printed, or how it died.

// hammerEnv, when set, makes this test binary hammer the limiter and exit instead of running
// the specs.
const hammerEnv = "LESSON04_HAMMER_LIMITER"

// hammerWorkers each call When and NumRequeues on one item hammerCalls times: enough calls
// that the goroutines overlap for a while.
const (
	hammerWorkers = 8
	hammerCalls   = 200_000
)

// hammerWithin bounds the child: a limiter that deadlocks (a Lock without its Unlock) fails the
// spec after this instead of hanging it.
const hammerWithin = 30 * time.Second

func init() {
	if os.Getenv(hammerEnv) == "" {
		return
	}
	// Several threads even where Go would use one (a container limited to one CPU): the
	// operating system then switches between workers anywhere, inside a map write too.
	runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), hammerWorkers))
	fmt.Println(hammerLimiter())
	os.Exit(0)
}

// hammerLimiter makes the workers fail one item at once, each also failing and forgetting an
// item of its own (so Forget's delete meets When's writes), and returns the one item's count.
func hammerLimiter() int {
	limiter := queues.NewPerItemBackoff[string](time.Millisecond, time.Second)
	start := make(chan struct{})
	var workers sync.WaitGroup
	for w := range hammerWorkers {
		own := "worker-" + strconv.Itoa(w)
		workers.Go(func() {
			<-start
			for range hammerCalls {
				limiter.When("shared")
				limiter.NumRequeues("shared")
				limiter.When(own)
				limiter.Forget(own)
			}
		})
	}
	close(start)
	workers.Wait()
	return limiter.NumRequeues("shared")
}

// runHammer runs the hammer in a child process and returns its count, or the error and the
// first lines of what it printed when it did not exit cleanly.
func runHammer(ctx context.Context) (count int, output string, err error) {
	ctx, cancel := context.WithTimeout(ctx, hammerWithin)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), hammerEnv+"=1")
	out, err := cmd.CombinedOutput()
	output = firstLines(string(out), 6)
	if err != nil {
		return 0, output, err
	}
	count, err = strconv.Atoi(strings.TrimSpace(string(out)))
	return count, output, err
}

// firstLines keeps the start of a crash report: its cause, not every goroutine's stack.
func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
