package board

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// testCatalog is ten lessons of five exercises, about the workshop's size (46 exercises).
func testCatalog() Catalog {
	c := Catalog{}
	for i := 1; i <= 10; i++ {
		c[fmt.Sprintf("%02d-lesson", i)] = []int{1, 2, 3, 4, 5}
	}
	return c
}

// hostile is the worst a report can carry: every exercise of the catalog failing with the
// longest message, made of characters that grow when escaped (within MaxReportBytes), and the
// longest known mistake's name; half the learners fail one way, half another.
func hostile(i int, c Catalog, now time.Time) []byte {
	name := hostileName(i)
	rep := Report{Learner: name, Lessons: map[string]map[int]Result{}}
	for lesson, exercises := range c {
		rep.Lessons[lesson] = map[int]Result{}
		for _, n := range exercises {
			rep.Lessons[lesson][n] = Result{Specs: 9, CheckedAt: now, FirstFailure: fmt.Sprint(i%2) + strings.Repeat(`"<'`, 100), Mistake: longestMistake(i)}
		}
	}
	body, _ := json.Marshal(rep)
	return body
}

// joinFrom and reportFrom are a laptop at address from joining and reporting.
func (b *testBoard) joinFrom(name, from string) int {
	body, _ := json.Marshal(joinRequest{name})
	status, msg := b.call(http.MethodPost, "/api/join", from, map[string]string{"X-Join-Code": b.s.Code()}, body)
	var answer joinAnswer
	if status == http.StatusCreated && json.Unmarshal([]byte(msg), &answer) == nil {
		b.secrets[answer.Learner] = answer.Secret
	}
	return status
}

func (b *testBoard) reportFrom(name, from string, body []byte) int {
	status, _ := b.call(http.MethodPost, "/api/report", from, map[string]string{"X-Join-Code": b.s.Code(), secretHeader: b.secrets[name]}, body)
	return status
}

// longestMistake is a known mistake's name of the longest length a report may carry.
func longestMistake(i int) string {
	prefix := fmt.Sprintf("m%d-", i%2)
	return prefix + strings.Repeat("x", maxMistakeBytes-len(prefix))
}

// hostileName is a name of the longest length, all characters that grow when escaped.
func hostileName(i int) string { return fmt.Sprintf("%04d", i) + strings.Repeat(`<"&'`, 9) }

func TestBoardCapsLearners(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"), Options{MaxLearners: 3})
	for _, name := range []string{"a", "b", "c"} {
		b.report(name, "01-gvk-gvr", 1, true, "")
	}
	status, msg := b.join("d")
	if status != http.StatusForbidden || !strings.Contains(msg, "full (3 learners)") || !strings.Contains(msg, "MAX_LEARNERS") {
		t.Errorf("a fourth learner: %d %q, want 403 saying the board is full", status, msg)
	}
	if status, _ := b.join("a"); status != http.StatusOK {
		t.Errorf("a learner on the board joining again from their laptop: %d", status)
	}
	if _, err := Remove(t.Context(), b.adminFile(), "b"); err != nil {
		t.Fatal(err)
	}
	if status, _ := b.join("d"); status != http.StatusCreated {
		t.Errorf("after a removal there is room: %d", status)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "x.db"), Options{MaxLearners: MaxMaxLearners + 1}); err == nil {
		t.Errorf("MAX_LEARNERS above %d must be refused", MaxMaxLearners)
	}
}

// Each address has its own budget of joins, reports and page loads: a burst (a room behind
// one NAT address), then a steady rate; another address is not affected.
func TestBoardRateLimitsEachAddress(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"), Options{MaxLearners: MaxMaxLearners})
	const nat, other = "198.51.100.7:40000", "198.51.100.8:40000"
	for i := range int(joinRate.Burst) {
		if status := b.joinFrom(fmt.Sprint("nat-", i), nat); status != http.StatusCreated {
			t.Fatalf("join %d of a room behind one address: %d", i, status)
		}
	}
	status, msg := b.call(http.MethodPost, "/api/join", nat, map[string]string{"X-Join-Code": b.s.Code()}, []byte(`{"learner":"one-more"}`))
	if status != http.StatusTooManyRequests || !strings.Contains(msg, "too many joins") {
		t.Errorf("join past the burst: %d %q", status, msg)
	}
	if status := b.joinFrom("elsewhere", other); status != http.StatusCreated {
		t.Errorf("another address: %d", status)
	}
	b.now = b.now.Add(joinRate.Every)
	if status := b.joinFrom("later", nat); status != http.StatusCreated {
		t.Errorf("after %s: %d", joinRate.Every, status)
	}

	for i := range int(reportRate.Burst) { // wrong codes count too: the limit comes first
		b.call(http.MethodPost, "/api/report", nat, map[string]string{"X-Join-Code": "WRONG"}, []byte(`{}`))
		_ = i
	}
	body, _ := json.Marshal(Report{Learner: "later"})
	if status := b.reportFrom("later", nat, body); status != http.StatusTooManyRequests {
		t.Errorf("report past the burst: %d", status)
	}
	for range int(readRate.Burst) {
		b.call(http.MethodGet, "/", nat, nil, nil)
	}
	if status, _ := b.call(http.MethodGet, "/", nat, nil, nil); status != http.StatusTooManyRequests {
		t.Errorf("page loads past the burst: %d", status)
	}
	// One laptop on IPv6 has a /64 of addresses: they count as one.
	for i := range int(readRate.Burst) {
		b.call(http.MethodGet, "/", fmt.Sprintf("[2001:db8:1:2::%x]:40000", i+1), nil, nil)
	}
	if status, _ := b.call(http.MethodGet, "/", "[2001:db8:1:2::ffff]:40000", nil, nil); status != http.StatusTooManyRequests {
		t.Errorf("a fresh address of the same /64: %d", status)
	}
}

// The limiter's memory is bounded too: past maxTracked addresses, idle ones are forgotten, and
// new ones wait while none is.
func TestBoardLimiterStaysBounded(t *testing.T) {
	defer func(n int) { maxTracked = n }(maxTracked)
	maxTracked = 10
	l, now := newLimiter(rate{Burst: 2, Every: time.Second}), time.Now()
	for i := range 10 {
		l.allow(fmt.Sprint(i), now)
	}
	if ok, _ := l.allow("new", now); ok {
		t.Errorf("an 11th address while none is idle must wait")
	}
	if ok, _ := l.allow("new", now.Add(2*time.Second)); !ok || len(l.buckets) > maxTracked {
		t.Errorf("once the others are idle: %v, %d buckets", ok, len(l.buckets))
	}
}

func TestBoardKeepsOnlyItsCatalogsExercises(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"), Options{Lessons: Catalog{"01-gvk-gvr": {1, 2, 3, 4}}})
	b.report("ada", "01-gvk-gvr", 4, true, "")
	for body, words := range map[string]string{
		`{"learner":"ada","lessons":{"01-gvk-gvr":{"5":{"specs":2}}}}`: "no exercise 5",
		`{"learner":"ada","lessons":{"11-nope":{"1":{"specs":2}}}}`:    "not a lesson of this workshop",
	} {
		status, msg := b.post(b.s.Code(), []byte(body))
		if status != http.StatusBadRequest || !strings.Contains(msg, words) {
			t.Errorf("%s: %d %q, want 400 with %q", body, status, msg, words)
		}
	}
}

// flood fills a board with as many hostile learners as it takes (and more tries), each
// reporting the largest report rounds times, one second apart.
func flood(b *testBoard, tries, rounds int) (joined int) {
	b.t.Helper()
	for i := range tries {
		if b.joinFrom(hostileName(i), fmt.Sprintf("203.0.113.%d:1", i%250)) == http.StatusCreated {
			joined++
		}
	}
	for range rounds {
		b.now = b.now.Add(MinInterval)
		for i := range joined {
			if status := b.reportFrom(hostileName(i), fmt.Sprintf("203.0.113.%d:1", i%250), hostile(i, testCatalog(), b.now)); status != http.StatusNoContent {
				b.t.Fatalf("a hostile report within the limits: %d", status)
			}
		}
	}
	return joined
}

// Whatever is posted, the page and the failures view stay small: a page of learners at a time,
// failure texts cut, and a budget for them.
func TestBoardPageStaysSmallUnderAFlood(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"), Options{MaxLearners: 150, Lessons: testCatalog()})
	if joined := flood(b, 400, 1); joined != 150 {
		t.Fatalf("%d learners joined, want the cap, 150", joined)
	}
	const limit = 256 << 10
	for _, path := range []string{"/", "/?page=2", "/?page=3", "/?page=99", "/failures"} {
		page := b.get(path)
		if len(page) > limit || strings.Contains(page, `<"&`) {
			t.Errorf("%s is %d bytes (limit %d), or shows a name unescaped", path, len(page), limit)
		}
		t.Logf("%s: %d KiB", path, len(page)>>10)
	}
	first, last := b.get("/"), b.get("/?page=3")
	if n := strings.Count(first, `<tr class="learner">`); n != rowsPerPage || !strings.Contains(first, `href="/?page=2"`) {
		t.Errorf("page 1 shows %d learners, want %d and a link to page 2", n, rowsPerPage)
	}
	if n := strings.Count(last, `<tr class="learner">`); n != 150-2*rowsPerPage || !strings.Contains(last, "showing 121 to 150") {
		t.Errorf("page 3 shows %d learners, want the last 30", n)
	}
}

// The database holds at most the cap of learners, each at most the catalog's exercises: a
// flood of the largest reports leaves it a few MB, and a clear gives the space back.
func TestBoardDatabaseStaysBoundedUnderAFlood(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.db")
	b := newTestBoard(t, path, Options{Lessons: testCatalog()})
	if joined := flood(b, 3000, 30); joined != DefaultMaxLearners {
		t.Fatalf("%d learners joined, want the cap, %d", joined, DefaultMaxLearners)
	}
	fi, _ := os.Stat(path)
	t.Logf("board.db after the flood: %d KiB", fi.Size()>>10)
	if fi.Size() > 16<<20 {
		t.Errorf("board.db grew to %d MiB under a flood", fi.Size()>>20)
	}
	if _, err := Clear(t.Context(), b.adminFile(), false); err != nil {
		t.Fatal(err)
	}
	fi, _ = os.Stat(path)
	t.Logf("board.db after a clear: %d KiB", fi.Size()>>10)
	if fi.Size() > 256<<10 {
		t.Errorf("board.db is still %d KiB after a clear", fi.Size()>>10)
	}
}

// A file bloated by an older board (which took any number of names) shrinks when it opens.
func TestBoardShrinksABloatedFileWhenItOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.db")
	_ = newTestBoard(t, path).s.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	junk := []byte(strings.Repeat("x", 100<<10))
	for i := range 200 { // 20 MB of learners, then all but one gone
		_ = db.Update(func(tx *bolt.Tx) error { return tx.Bucket(learnersBucket).Put(fmt.Appendf(nil, "n%d", i), junk) })
	}
	_ = db.Update(func(tx *bolt.Tx) error {
		for i := range 200 {
			_ = tx.Bucket(learnersBucket).Delete(fmt.Appendf(nil, "n%d", i))
		}
		return tx.Bucket(learnersBucket).Put([]byte("ada"), []byte(`{"name":"ada"}`))
	})
	_ = db.Close()
	before, _ := os.Stat(path)
	b := newTestBoard(t, path)
	after, _ := os.Stat(path)
	if after.Size() > 256<<10 || !strings.Contains(b.get("/"), ">ada<") {
		t.Errorf("board.db: %d KiB before opening, %d KiB after (ada kept: %v)", before.Size()>>10, after.Size()>>10, strings.Contains(b.get("/"), ">ada<"))
	}
}
