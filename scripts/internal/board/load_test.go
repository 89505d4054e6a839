package board

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestBoardUnderLoad is issue 13's load run: 100 learners each reporting every 2 s for a minute
// against a real HTTP server and state file. It takes a minute, so it runs only when asked:
//
//	BOARD_LOAD=1 go test -run BoardUnderLoad -v ./scripts/internal/board
func TestBoardUnderLoad(t *testing.T) {
	if os.Getenv("BOARD_LOAD") == "" {
		t.Skip("the load run takes a minute: BOARD_LOAD=1 to run it")
	}
	const learners, every, duration = 100, 2 * time.Second, time.Minute
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	b.s.now = time.Now
	var mu sync.Mutex
	var latencies []time.Duration
	failures := 0
	var wg sync.WaitGroup
	stop := time.Now().Add(duration)
	for i := range learners {
		wg.Go(func() {
			<-time.NewTimer(time.Duration(i) * every / learners).C // spread the learners over the period
			tick := time.NewTicker(every)
			defer tick.Stop()
			for n := 1; time.Now().Before(stop); n++ {
				res := map[int]Result{}
				for e := 1; e <= 4; e++ {
					res[e] = Result{Specs: 6, SpecsPassed: min(6, n%7), Passed: n%7 >= 6, CheckedAt: time.Now(), FirstFailure: fmt.Sprintf("Expected %d to equal 6", n%7)}
				}
				body, _ := json.Marshal(Report{Learner: fmt.Sprintf("learner-%03d", i), Lessons: map[string]map[int]Result{"03-informers": res}})
				req, _ := http.NewRequest(http.MethodPost, b.srv.URL+"/api/report", bytes.NewReader(body))
				req.Header.Set("X-Join-Code", b.s.Code())
				start := time.Now()
				resp, err := http.DefaultClient.Do(req)
				took := time.Since(start)
				mu.Lock()
				latencies = append(latencies, took)
				if err != nil || resp.StatusCode != http.StatusNoContent {
					failures++
				}
				mu.Unlock()
				if err == nil {
					resp.Body.Close()
				}
				<-tick.C
			}
		})
	}
	// Meanwhile the instructor's page refreshes every 5 s, as the browser would.
	pageTimes := []time.Duration{}
	refresh := time.NewTicker(5 * time.Second)
	defer refresh.Stop()
	for time.Now().Before(stop) {
		start := time.Now()
		b.get("/")
		pageTimes = append(pageTimes, time.Since(start))
		<-refresh.C
	}
	wg.Wait()
	slices.Sort(latencies)
	slices.Sort(pageTimes)
	q := func(d []time.Duration, p float64) time.Duration { return d[int(float64(len(d)-1)*p)] }
	t.Logf("reports: %d, failed %d; latency p50 %s, p95 %s, p99 %s, max %s", len(latencies), failures,
		q(latencies, .5), q(latencies, .95), q(latencies, .99), latencies[len(latencies)-1])
	t.Logf("page with %d learners: p50 %s, max %s", learners, q(pageTimes, .5), pageTimes[len(pageTimes)-1])
	if failures > 0 {
		t.Errorf("%d reports failed", failures)
	}
}
