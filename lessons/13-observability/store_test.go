package observe_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	observe "workshop.local/lessons/13-observability"
)

// errStoreDown is what the fake store returns when it fails on purpose.
var errStoreDown = errors.New("store unavailable")

// fakeStore is the slow dependency of the specs: it takes delay per call, holds its callers
// while held, fails while down (or a key's first failFirst calls, or the calls for poison), and
// counts everything: calls and their times, callers in flight (in all and per key), and
// outcomes. It is safe for concurrent use.
type fakeStore struct {
	mu        sync.Mutex
	delay     time.Duration
	hold      chan struct{} // non-nil: calls wait until it is closed
	down      bool
	failFirst int
	// poison fails every call for that key; with healAfter, only until its first call that
	// starts healAfter or more after its first one (that call fails too, the next ones work).
	poison    string
	healAfter time.Duration
	healed    bool
	// When poison was first tried, when it last failed, and when its first call that works began.
	poisonFirst, poisonFailed, poisonWorked time.Time

	calls       []time.Time
	attempts    map[string]int
	inFlight    int
	maxInFlight int
	keyInFlight map[string]int
	maxPerKey   int
	ok, failed  int
	published   map[string]bool
}

var _ observe.Store = &fakeStore{}

func newStore() *fakeStore {
	return &fakeStore{attempts: map[string]int{}, keyInFlight: map[string]int{}, published: map[string]bool{}}
}

// Put is the Store's call: it counts the caller in, waits, decides the outcome, counts it out.
func (s *fakeStore) Put(ctx context.Context, key string, _ map[string]string) error {
	fail, wait := s.begin(key)
	select {
	case <-wait:
	case <-ctx.Done():
		s.end(key, ctx.Err())
		return ctx.Err()
	}
	var err error
	if fail {
		// The key in the message, as real errors have: an error's text is no label value.
		err = fmt.Errorf("%w: %s", errStoreDown, key)
	}
	s.end(key, err)
	return err
}

// begin counts a caller in and returns whether its call fails and what it waits for.
func (s *fakeStore) begin(key string) (fail bool, wait <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, time.Now())
	s.attempts[key]++
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	s.keyInFlight[key]++
	s.maxPerKey = max(s.maxPerKey, s.keyInFlight[key])
	fail = s.down || s.attempts[key] <= s.failFirst
	if key == s.poison {
		now := s.calls[len(s.calls)-1]
		if s.attempts[key] == 1 {
			s.poisonFirst = now
		}
		if !s.healed {
			fail = true
			s.poisonFailed = now
			s.healed = s.healAfter > 0 && now.Sub(s.poisonFirst) >= s.healAfter
		} else if !fail && s.poisonWorked.IsZero() {
			s.poisonWorked = now
		}
	}
	switch {
	case s.hold != nil:
		wait = s.hold
	case s.delay > 0:
		wait = afterChan(s.delay)
	default:
		wait = closedChan
	}
	return fail, wait
}

func (s *fakeStore) end(key string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inFlight--
	s.keyInFlight[key]--
	if err != nil {
		s.failed++
		return
	}
	s.ok++
	s.published[key] = true
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func afterChan(d time.Duration) <-chan struct{} {
	c := make(chan struct{})
	time.AfterFunc(d, func() { close(c) })
	return c
}

// Hold makes every call from now on wait until Release.
func (s *fakeStore) Hold() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hold = make(chan struct{})
}

// Release lets every held call go, and the next calls through at once. Calling it twice is fine.
func (s *fakeStore) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hold != nil {
		close(s.hold)
		s.hold = nil
	}
}

// SetDown makes every call from now on fail (true) or not (false).
func (s *fakeStore) SetDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = down
}

// InFlight is the number of callers in Put right now; MaxInFlight the most there ever were;
// MaxPerKey the most there ever were for one and the same key.
func (s *fakeStore) InFlight() int    { s.mu.Lock(); defer s.mu.Unlock(); return s.inFlight }
func (s *fakeStore) MaxInFlight() int { s.mu.Lock(); defer s.mu.Unlock(); return s.maxInFlight }
func (s *fakeStore) MaxPerKey() int   { s.mu.Lock(); defer s.mu.Unlock(); return s.maxPerKey }

// Outcomes returns how many calls succeeded and failed so far.
func (s *fakeStore) Outcomes() (ok, failed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ok, s.failed
}

// Failed is how many calls failed so far.
func (s *fakeStore) Failed() int { s.mu.Lock(); defer s.mu.Unlock(); return s.failed }

// Calls is the number of calls so far; CallsSince those that started at t or later.
func (s *fakeStore) Calls() int { s.mu.Lock(); defer s.mu.Unlock(); return len(s.calls) }

func (s *fakeStore) CallsSince(t time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		if !c.Before(t) {
			n++
		}
	}
	return n
}

// Attempts is the number of calls for key so far.
func (s *fakeStore) Attempts(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts[key]
}

// Unpublished returns the keys of want not published yet.
func (s *fakeStore) Unpublished(want []string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var missing []string
	for _, k := range want {
		if !s.published[k] {
			missing = append(missing, k)
		}
	}
	return missing
}

// Poison returns when the poison key was first tried, when it last failed, and when the first
// call for it that works began (zero: none yet).
func (s *fakeStore) Poison() (first, lastFailed, worked time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.poisonFirst, s.poisonFailed, s.poisonWorked
}
