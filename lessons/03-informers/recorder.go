package informers

import (
	"slices"
	"strings"
	"sync"
)

// This file needs no edits: it is the notebook your event handlers write in (exercises 4
// and 5), and the specs read.

// Recorder keeps, in order, the notifications that event handlers received, one line each,
// such as "add team-a/settings" or "delete Pod team-a/web-7d9c-x2x5q". An informer calls its
// handlers from its own goroutine, so a Recorder locks. The zero value is ready to use.
type Recorder struct {
	mu     sync.Mutex
	events []string
	// before, if set, runs before an event is recorded. Only the specs set it (see
	// export_test.go), to play a slow handler: one that is still busy with the initial list.
	before func(event string)
}

// Record notes one notification.
func (r *Recorder) Record(event string) {
	r.mu.Lock()
	before := r.before
	r.mu.Unlock()
	if before != nil {
		before(event) // outside the lock: it may block, and Events must still answer meanwhile
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event)
}

// Events returns every notification so far, oldest first.
func (r *Recorder) Events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// Count returns how many notifications start with prefix, for example Count("update Pod ").
func (r *Recorder) Count(prefix string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if strings.HasPrefix(e, prefix) {
			n++
		}
	}
	return n
}
