// Package proof is the maintainers' side of the workshop: make test proves every lesson (its solution
// passes, its untouched starter fails every exercise, every kept wrong solution is caught) and the
// tooling; make test-wrong proves one lesson's wrong solutions; make mistakes writes the
// instructors' list of mistakes from them.
package proof

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"workshop.local/scripts/internal/lessons"
)

// check is one line of `make test`'s report. run returns a short detail on success.
type check struct {
	name string
	run  func(context.Context) (string, error)
}

// Test is make test: it proves the workshop: static checks, the tooling's own tests, and for every lesson
// that its solution passes all specs and its untouched starter fails every exercise. startCluster
// brings the workshop cluster up; the static checks need none, so they run while it starts.
func Test(ctx context.Context, root, scratch, only string, startCluster func(context.Context) error) (bool, error) {
	all, err := lessons.Discover(root)
	if err != nil {
		return false, err
	}
	if only != "" {
		lesson, err := lessons.Find(root, only)
		if err != nil {
			return false, err
		}
		all = []lessons.Lesson{lesson}
	}
	t := &tester{root: root, scratch: scratch, lessons: all}
	passed, failed := 0, 0
	runIn := func(ctx context.Context, c check) {
		start := time.Now()
		detail, err := c.run(ctx)
		took := time.Since(start).Round(100 * time.Millisecond)
		t.mu.Lock()
		defer t.mu.Unlock()
		switch {
		case err != nil && ctx.Err() != nil:
			return // stopped, not failed: interrupted, or the cluster could not start
		case err != nil:
			failed++
			fmt.Printf("FAIL  %s (%s)\n%s\n", c.name, took, indent(err.Error()))
		default:
			passed++
			fmt.Printf("PASS  %s: %s (%s)\n", c.name, detail, took)
		}
	}
	// The static checks first, one by one: go vet compiles every package the lessons' builds
	// then find in Go's build cache.
	if err := staticWhileClusterStarts(ctx, t.staticChecks(), startCluster, runIn); err != nil {
		if ctx.Err() != nil {
			return false, interrupted(ctx, passed, failed)
		}
		fmt.Printf("\n%d passed, %d failed, and no lesson proven: the cluster did not start\n", passed, failed)
		return false, err
	}
	chains := [][]check{t.toolingChecks()}
	for _, l := range longestLast(all) {
		chains = append(chains, t.lessonChecks(l))
	}
	runChains(chains, lessonLanes, func(c check) { runIn(ctx, c) })
	if ctx.Err() != nil {
		return false, interrupted(ctx, passed, failed)
	}
	t.printWrongSummary()
	fmt.Printf("\n%d passed, %d failed\n", passed, failed)
	return failed == 0, nil
}

// staticWhileClusterStarts runs the static checks while startCluster brings the cluster up: they
// need none, and on a fresh machine the cluster's build waits on downloads and single-threaded
// links, time the checks' own builds fill. A cluster that cannot start stops the checks at once
// (no lesson could be proven) and its error is returned.
func staticWhileClusterStarts(ctx context.Context, static []check, startCluster func(context.Context) error, runIn func(context.Context, check)) error {
	staticCtx, stopStatic := context.WithCancel(ctx)
	defer stopStatic()
	clusterUp := make(chan error, 1)
	go func() {
		err := startCluster(ctx)
		if err != nil {
			stopStatic()
		}
		clusterUp <- err
	}()
	for _, c := range static {
		if staticCtx.Err() != nil {
			break
		}
		runIn(staticCtx, c)
	}
	return <-clusterUp
}

// interrupted is make test's end when it was stopped: the checks cut short printed nothing, so
// the counts are no verdict.
func interrupted(ctx context.Context, passed, failed int) error {
	return fmt.Errorf("interrupted (%v) after %d passed and %d failed: run make test again for a verdict", ctx.Err(), passed, failed)
}

// longestLast orders the lessons for runChains, whose second lane starts from the end: lessons
// with an exercise whose specs the learner writes (10 and 11, each also a project with a
// manager to build and run) take the longest to prove, so they go last, the rest in order.
func longestLast(all []lessons.Lesson) []lessons.Lesson {
	ordered := slices.Clone(all)
	slices.SortStableFunc(ordered, func(a, b lessons.Lesson) int {
		return cmp.Compare(weight(a), weight(b))
	})
	return ordered
}

func weight(l lessons.Lesson) int {
	if l.OwnSpecs() != nil {
		return 1
	}
	return 0
}

// tester holds what the checks share.
type tester struct {
	root, scratch string
	lessons       []lessons.Lesson

	mu sync.Mutex // the report's lines and the counts below: lanes run checks side by side
	// The wrong solutions proven so far, for the summary line.
	wrongTotal, wrongCaught int
	wrongMissed             []string
}

func indent(s string) string {
	return "      " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      ")
}
