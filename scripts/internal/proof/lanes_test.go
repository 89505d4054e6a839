package proof

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// runChains runs every check once, each chain's in order, and with two lanes the second lane
// starts from the last chain (the long lessons come last in the list).
func TestRunChainsOrder(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	lastStarted := make(chan struct{})
	mark := func(name string) check {
		return check{name, func(context.Context) (string, error) {
			mu.Lock()
			ran = append(ran, name)
			mu.Unlock()
			switch name {
			case "d1":
				close(lastStarted)
			case "a1": // the first lane waits here until the other lane has taken the last chain
				select {
				case <-lastStarted:
				case <-time.After(5 * time.Second):
					t.Error("the second lane did not start the last chain while the first ran the first")
				}
			}
			return "", nil
		}}
	}
	chains := [][]check{
		{mark("a1"), mark("a2")},
		{mark("b1")},
		{mark("c1"), mark("c2"), mark("c3")},
		{mark("d1")},
	}
	runChains(chains, 2, func(c check) { _, _ = c.run(context.Background()) })

	if len(ran) != 7 {
		t.Fatalf("ran %v, want every check once", ran)
	}
	before := func(x, y string) bool { return slices.Index(ran, x) < slices.Index(ran, y) }
	for _, pair := range [][2]string{{"a1", "a2"}, {"c1", "c2"}, {"c2", "c3"}} {
		if !before(pair[0], pair[1]) {
			t.Errorf("ran %v: %s should come before %s, a chain runs in order", ran, pair[0], pair[1])
		}
	}
}

// One lane runs the chains one after the other, in their order.
func TestRunChainsOneLane(t *testing.T) {
	var ran []string
	mark := func(name string) check {
		return check{name, func(context.Context) (string, error) { ran = append(ran, name); return "", nil }}
	}
	runChains([][]check{{mark("a")}, {mark("b")}, {mark("c")}}, 1, func(c check) { _, _ = c.run(context.Background()) })
	if !slices.Equal(ran, []string{"a", "b", "c"}) {
		t.Errorf("ran %v, want a b c", ran)
	}
}
