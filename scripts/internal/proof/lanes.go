package proof

import (
	"context"
	"runtime"
	"sync"
)

// lessonLanes is how many lessons make test proves at once. A lesson's proof mostly waits: a
// wrong controller is caught when a wait for the cluster runs out, and a run of make test on 2
// cores kept them busy less than half the time (docs/benchmarks.md). Two lessons side by side
// fill those waits with the other lesson's builds; every spec works in a namespace of its own
// and every cluster-wide object (a CRD, a webhook configuration) is named per lesson, so two
// lessons never touch each other's. The checks of one lesson still run one after the other.
const lessonLanes = 2

// buildSlots bounds the test binaries being built at once across all lanes to the CPUs: more
// would only slow each build down and starve the specs running beside them.
var buildSlots = make(chan struct{}, runtime.NumCPU())

// withBuildSlot runs build while holding one of the CPUs' build slots.
func withBuildSlot(ctx context.Context, build func() error) error {
	select {
	case buildSlots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-buildSlots }()
	return build()
}

// runChains runs each chain's checks in order, lanes chains at a time. The chains are taken
// from both ends of the list: one lane works from the first (the tooling, the early lessons)
// and the other from the last, where make test puts the long ones (longestLast); starting those
// first keeps a long lesson from running alone at the end.
func runChains(chains [][]check, lanes int, run func(check)) {
	var mu sync.Mutex
	front, back := 0, len(chains)-1
	next := func(fromBack bool) ([]check, bool) {
		mu.Lock()
		defer mu.Unlock()
		if front > back {
			return nil, false
		}
		if fromBack {
			back--
			return chains[back+1], true
		}
		front++
		return chains[front-1], true
	}
	var wg sync.WaitGroup
	for lane := range lanes {
		wg.Go(func() {
			for {
				chain, ok := next(lane%2 == 1)
				if !ok {
					return
				}
				for _, c := range chain {
					run(c)
				}
			}
		})
	}
	wg.Wait()
}
