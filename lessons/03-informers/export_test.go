package informers

import (
	"strings"
	"sync"
)

// HoldRecords makes rec a slow handler, for the specs only: Record waits, for every event that
// starts with prefix, until release is called. held is closed when the first such event
// arrives, that is once the informer has handed the handler an object and the handler is busy
// with it. release may be called more than once.
func HoldRecords(rec *Recorder, prefix string) (held <-chan struct{}, release func()) {
	heldCh, released := make(chan struct{}), make(chan struct{})
	var heldOnce, releaseOnce sync.Once
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.before = func(event string) {
		if !strings.HasPrefix(event, prefix) {
			return
		}
		heldOnce.Do(func() { close(heldCh) })
		<-released
	}
	return heldCh, func() { releaseOnce.Do(func() { close(released) }) }
}
