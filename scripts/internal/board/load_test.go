package board

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The load runs take a minute each, so they run only when asked, on loopback only:
//
//	BOARD_LOAD=1 go test -run 'BoardUnder' -v ./scripts/internal/board
//
// Each simulated laptop gets an address of its own in 127.0.0.0/8 (Linux routes all of it to
// the loopback interface), as laptops in a room have, so the per-address limits apply to each
// as they would in the room. BOARD_LOAD_SECONDS shortens or lengthens a run.

func loadRun(t *testing.T, def time.Duration) time.Duration {
	if os.Getenv("BOARD_LOAD") == "" {
		t.Skip("the load run takes a minute: BOARD_LOAD=1 to run it")
	}
	if s, err := strconv.Atoi(os.Getenv("BOARD_LOAD_SECONDS")); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return def
}

// laptop is a client that connects from its own loopback address.
func laptop(ip string) *http.Client {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 32}}
}

// loadLearner is one simulated learner: their laptop, name and secret.
type loadLearner struct {
	client       *http.Client
	name, secret string
}

func (l *loadLearner) do(b *testBoard, path string, body []byte) (int, error) {
	req, _ := http.NewRequest(http.MethodPost, b.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("X-Join-Code", b.s.Code())
	req.Header.Set(secretHeader, l.secret)
	resp, err := l.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer func() { _, _ = io.Copy(io.Discard, resp.Body); resp.Body.Close() }() // so the connection is reused
	if path == "/api/join" && resp.StatusCode == http.StatusCreated {
		var answer joinAnswer
		_ = json.NewDecoder(resp.Body).Decode(&answer)
		l.secret = answer.Secret
	}
	return resp.StatusCode, nil
}

// latencies collects report times and failures from many goroutines.
type latencies struct {
	mu       sync.Mutex
	took     []time.Duration
	failures int
}

func (l *latencies) add(d time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.took = append(l.took, d)
	if !ok {
		l.failures++
	}
}

func (l *latencies) summary() string {
	slices.Sort(l.took)
	if len(l.took) == 0 {
		return "no reports"
	}
	q := func(p float64) time.Duration {
		return l.took[int(float64(len(l.took)-1)*p)].Round(10 * time.Microsecond)
	}
	return fmt.Sprintf("%d reports, %d failed; p50 %s, p95 %s, p99 %s, max %s", len(l.took), l.failures, q(.5), q(.95), q(.99), l.took[len(l.took)-1])
}

// runLearners joins n learners (from 127.0.1.x), then has each report the lesson's exercises
// every period until stop, spread over the period.
// It returns their latencies and a function that waits until every learner made its last report.
func runLearners(t *testing.T, b *testBoard, n int, every time.Duration, stop time.Time) (*latencies, func()) {
	t.Helper()
	learners := make([]*loadLearner, n)
	for i := range learners {
		learners[i] = &loadLearner{client: laptop(fmt.Sprintf("127.0.1.%d", i+1)), name: fmt.Sprintf("learner-%03d", i)}
		body, _ := json.Marshal(joinRequest{learners[i].name})
		if status, err := learners[i].do(b, "/api/join", body); status != http.StatusCreated {
			t.Fatalf("join of %s: %d %v", learners[i].name, status, err)
		}
	}
	lat := &latencies{}
	var wg sync.WaitGroup
	for i, l := range learners {
		wg.Go(func() {
			<-time.After(time.Duration(i) * every / time.Duration(n))
			tick := time.NewTicker(every)
			defer tick.Stop()
			for round := 1; time.Now().Before(stop); round++ {
				res := map[int]Result{}
				for e := 1; e <= 5; e++ {
					res[e] = Result{Specs: 6, SpecsPassed: min(6, round%7), Passed: round%7 >= 6, CheckedAt: time.Now(), FirstFailure: fmt.Sprintf("Expected %d to equal 6", round%7)}
				}
				body, _ := json.Marshal(Report{Learner: l.name, Lessons: map[string]map[int]Result{"03-informers": res}})
				start := time.Now()
				status, err := l.do(b, "/api/report", body)
				lat.add(time.Since(start), err == nil && status == http.StatusNoContent)
				<-tick.C
			}
		})
	}
	t.Cleanup(wg.Wait)
	return lat, wg.Wait
}

// TestBoardUnderLoad is issue 13's load run: 100 learners each reporting every 2 s for a minute
// against a real HTTP server and state file, while the page is fetched every 5 s.
func TestBoardUnderLoad(t *testing.T) {
	duration := loadRun(t, time.Minute)
	const learners, every = 100, 2 * time.Second
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"), Options{MaxLearners: learners})
	b.s.now = time.Now
	stop := time.Now().Add(duration)
	lat, lastRound := runLearners(t, b, learners, every, stop)
	var pageTimes []time.Duration
	// The page is fetched every 5 s, as the board's own page refreshes, paced by a ticker.
	page := time.NewTicker(5 * time.Second)
	defer page.Stop()
	for ; time.Now().Before(stop); <-page.C {
		start := time.Now()
		b.get("/")
		pageTimes = append(pageTimes, time.Since(start))
	}
	lastRound()
	slices.Sort(pageTimes)
	t.Logf("%d learners: %s", learners, lat.summary())
	t.Logf("page with %d learners: p50 %s, max %s", learners, pageTimes[len(pageTimes)/2], pageTimes[len(pageTimes)-1])
	if lat.failures > 0 {
		t.Errorf("%d reports failed", lat.failures)
	}
}

// TestBoardUnderAbuse: 60 learners report every 2 s, each from their laptop, while one hostile
// laptop that has the join code floods the board as fast as it can from 16 connections:
// new names, the largest reports, reports under the learners' names, page loads. The board
// must hold every learner (no report of theirs fails) and stay small in memory and on disk.
func TestBoardUnderAbuse(t *testing.T) {
	duration := loadRun(t, 30*time.Second)
	const learners, every, floods = 60, 2 * time.Second, 16
	path := filepath.Join(t.TempDir(), "board.db")
	b := newTestBoard(t, path, Options{MaxLearners: 100, Lessons: abuseCatalog()})
	b.s.now = time.Now
	base := heapInUse()
	stop := time.Now().Add(duration)
	lat, lastRound := runLearners(t, b, learners, every, stop)
	statuses, peak := flooding(b, floods, stop)
	lastRound()
	page, failuresPage := b.get("/"), b.get("/failures")
	fi, _ := os.Stat(path)
	t.Logf("%d learners under abuse: %s", learners, lat.summary())
	t.Logf("the hostile laptop's requests by answer: %v", statuses)
	t.Logf("live heap: %.1f MiB before, at most %.1f MiB during, %.1f MiB after; peak RSS of the test process %s; board.db %d KiB; page %d KiB, failures %d KiB",
		mib(base), mib(peak), mib(heapInUse()), peakRSS(), fi.Size()>>10, len(page)>>10, len(failuresPage)>>10)
	held := 0
	b.s.mu.Lock()
	for i := range learners {
		if l := b.s.st.Learners[fmt.Sprintf("learner-%03d", i)]; l != nil && len(l.Lessons["03-informers"]) == 5 {
			held++
		}
	}
	b.s.mu.Unlock()
	t.Logf("learners held: %d of %d", held, learners)
	if lat.failures > 0 || held != learners {
		t.Errorf("%d of the learners' reports failed, %d of %d learners held", lat.failures, held, learners)
	}
}

func abuseCatalog() Catalog {
	c := testCatalog()
	c["03-informers"] = []int{1, 2, 3, 4, 5}
	return c
}

// hostile is the flooding laptop (127.0.2.1) and the names it managed to take.
type hostileLaptop struct {
	client *http.Client
	mu     sync.Mutex
	held   []*loadLearner
}

// flooding runs the hostile laptop until stop; it returns how many of its requests got each
// answer, and the highest live heap seen meanwhile.
func flooding(b *testBoard, workers int, stop time.Time) (map[int]int, uint64) {
	h := &hostileLaptop{client: laptop("127.0.2.1")}
	var mu sync.Mutex
	statuses := map[int]int{}
	var peak atomic.Uint64
	ctx, cancel := context.WithDeadline(context.Background(), stop)
	defer cancel()
	go func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			if heap := heapInUse(); heap > peak.Load() {
				peak.Store(heap)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				status, err := h.request(b, w, i)
				mu.Lock()
				statuses[status]++
				if err != nil && statuses[0] == 1 {
					b.t.Logf("the hostile laptop's first failed request: %v", err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return statuses, peak.Load()
}

// request is the i-th request of hostile worker w, in turn: a join under a new name, the
// largest report under a name it holds, a report under a learner's name, a page load.
func (h *hostileLaptop) request(b *testBoard, w, i int) (int, error) {
	var status int
	var err error
	switch i % 4 {
	case 0:
		me := &loadLearner{client: h.client, name: fmt.Sprintf("%02d%06d", w, i) + hostileChars[:maxNameRunes-8]}
		body, _ := json.Marshal(joinRequest{me.name})
		if status, err = me.do(b, "/api/join", body); status == http.StatusCreated {
			h.mu.Lock()
			h.held = append(h.held, me)
			h.mu.Unlock()
		}
	case 1:
		h.mu.Lock()
		me := &loadLearner{client: h.client, name: "nobody"}
		if len(h.held) > 0 {
			me = h.held[i%len(h.held)]
		}
		h.mu.Unlock()
		status, err = me.do(b, "/api/report", hostileReport(me.name))
	case 2:
		forged := &loadLearner{client: h.client, secret: "guessed"}
		body, _ := json.Marshal(Report{Learner: fmt.Sprintf("learner-%03d", i%60)})
		status, err = forged.do(b, "/api/report", body)
	default:
		var resp *http.Response
		if resp, err = h.client.Get(b.srv.URL + "/"); err == nil {
			status = resp.StatusCode
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	return status, err
}

const hostileChars = `<script>"&'<script>"&'<script>"&'`

func hostileReport(name string) []byte {
	rep := Report{Learner: name, Lessons: map[string]map[int]Result{}}
	for lesson, exercises := range abuseCatalog() {
		rep.Lessons[lesson] = map[int]Result{}
		for _, n := range exercises {
			rep.Lessons[lesson][n] = Result{Specs: 9, CheckedAt: time.Now(), FirstFailure: fmt.Sprint(name, n) + string(bytes.Repeat([]byte(`"<'`), 90)), Mistake: longestMistake(n)}
		}
	}
	body, _ := json.Marshal(rep)
	return body
}

// heapInUse is the live heap: in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// peakRSS is the test process's peak resident memory (Linux), clients included.
func peakRSS() string {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range bytes.Split(data, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			return string(bytes.TrimSpace(v))
		}
	}
	return "unknown"
}
