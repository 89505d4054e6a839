package board

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"workshop.local/scripts/internal/learner"
)

// testBoard is a board on a temporary state file with a clock the test moves.
type testBoard struct {
	t       *testing.T
	s       *Server
	srv     *httptest.Server
	path    string
	now     time.Time
	secrets map[string]string // each learner's secret, as their laptop keeps it
}

func newTestBoard(t *testing.T, path string, opts ...Options) *testBoard {
	t.Helper()
	s, err := Open(path, append(opts, Options{})[0])
	if err != nil {
		t.Fatal(err)
	}
	b := &testBoard{t: t, s: s, path: path, now: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC), secrets: map[string]string{}}
	s.now = func() time.Time { return b.now }
	b.srv = httptest.NewServer(s.Handler())
	t.Cleanup(func() { b.srv.Close(); _ = s.Close() })
	return b
}

// call sends a request to the board as a laptop at the address from would, and returns the
// status and the body. from "" is the test's own loopback connection to the real server.
func (b *testBoard) call(method, path, from string, header map[string]string, body []byte) (int, string) {
	b.t.Helper()
	if from != "" {
		req := httptest.NewRequest(method, path, bytes.NewReader(body))
		req.RemoteAddr = from
		for k, v := range header {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		b.s.Handler().ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	req, _ := http.NewRequest(method, b.srv.URL+path, bytes.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg bytes.Buffer
	_, _ = msg.ReadFrom(resp.Body)
	return resp.StatusCode, msg.String()
}

// post sends a report with the join code code and, if the learner has one, their secret.
func (b *testBoard) post(code string, body []byte) (int, string) {
	b.t.Helper()
	var rep Report
	_ = json.Unmarshal(body, &rep)
	return b.call(http.MethodPost, "/api/report", "", map[string]string{"X-Join-Code": code, secretHeader: b.secrets[rep.Learner]}, body)
}

// join joins name as a new laptop (or, with its secret kept, the same one again).
func (b *testBoard) join(name string) (int, string) {
	b.t.Helper()
	body, _ := json.Marshal(joinRequest{name})
	status, msg := b.call(http.MethodPost, "/api/join", "", map[string]string{"X-Join-Code": b.s.Code(), secretHeader: b.secrets[name]}, body)
	var answer joinAnswer
	if status/100 == 2 && json.Unmarshal([]byte(msg), &answer) == nil {
		b.secrets[answer.Learner] = answer.Secret
	}
	return status, msg
}

func (b *testBoard) report(name string, lesson string, n int, passed bool, failure string) int {
	b.t.Helper()
	if b.secrets[name] == "" {
		if status, msg := b.join(name); status != http.StatusCreated {
			b.t.Fatalf("join of %s: %d %s", name, status, msg)
		}
	}
	res := Result{Passed: passed, Specs: 4, CheckedAt: b.now, FirstFailure: failure}
	if passed {
		res.SpecsPassed = 4
	}
	body, _ := json.Marshal(Report{Learner: name, Lessons: map[string]map[int]Result{lesson: {n: res}}})
	status, msg := b.post(b.s.Code(), body)
	if status/100 != 2 && status != http.StatusTooManyRequests {
		b.t.Fatalf("report of %s: %d %s", name, status, msg)
	}
	return status
}

func (b *testBoard) get(path string) string {
	b.t.Helper()
	_, body := b.call(http.MethodGet, path, "", nil, nil)
	return body
}

func TestBoardShowsLearnersEscapedAndWhoIsStuck(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	b.report("ada", "01-gvk-gvr", 1, true, "")
	b.report(`<script>alert(1)</script>`, "01-gvk-gvr", 1, false, "Expected <nil> to equal apps/v1")
	b.report("linus", "01-gvk-gvr", 2, false, "Expected <nil> to equal apps/v1")
	page := b.get("/")
	if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("the learner's name must be escaped:\n%s", page)
	}
	for _, want := range []string{">ada<", `class="passed"`, `class="failing"`, `class="not-started"`, "01-gvk-gvr #2"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	b.now = b.now.Add(16 * time.Minute)
	b.report("linus", "01-gvk-gvr", 2, false, "Expected <nil> to equal apps/v1")
	if page := b.get("/"); !strings.Contains(page, "01-gvk-gvr #2 for 16 min") {
		t.Errorf("linus failed exercise 2 for 16 min and should show as stuck:\n%s", page)
	}
	failures := b.get("/failures")
	if !strings.Contains(failures, "Expected &lt;nil&gt; to equal apps/v1") || strings.Index(failures, "01-gvk-gvr #1") < 0 {
		t.Errorf("failures view:\n%s", failures)
	}
}

func TestBoardRejectsBadReports(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	valid, _ := json.Marshal(Report{Learner: "ada", Lessons: map[string]map[int]Result{"01-gvk-gvr": {1: {Specs: 2}}}})
	cases := []struct {
		name, code string
		body       []byte
		status     int
		words      string
	}{
		{"wrong code", "NOPE", valid, http.StatusForbidden, "join code"},
		{"not JSON", b.s.Code(), []byte("{"), http.StatusBadRequest, "malformed"},
		{"unknown field", b.s.Code(), []byte(`{"learner":"a","code":"x"}`), http.StatusBadRequest, "unknown field"},
		{"bad lesson", b.s.Code(), []byte(`{"learner":"a","lessons":{"../etc":{}}}`), http.StatusBadRequest, "lesson folder"},
		{"bad counts", b.s.Code(), []byte(`{"learner":"a","lessons":{"01-x":{"1":{"specsPassed":5,"specs":2}}}}`), http.StatusBadRequest, "not a count"},
		{"bad exercise", b.s.Code(), []byte(`{"learner":"a","lessons":{"01-x":{"21":{"specs":2}}}}`), http.StatusBadRequest, "no exercise 21"},
		{"no name", b.s.Code(), []byte(`{"learner":"  "}`), http.StatusBadRequest, "learner name"},
		{"oversized", b.s.Code(), append([]byte(`{"learner":"`+strings.Repeat("a", MaxReportBytes)), []byte(`"}`)...), http.StatusRequestEntityTooLarge, "larger than"},
	}
	for _, tc := range cases {
		status, msg := b.post(tc.code, tc.body)
		if status != tc.status || !strings.Contains(msg, tc.words) {
			t.Errorf("%s: got %d %q, want %d with %q", tc.name, status, msg, tc.status, tc.words)
		}
	}
	if got := b.report("ada", "01-gvk-gvr", 1, false, ""); got != http.StatusNoContent {
		t.Fatalf("first report: %d", got)
	}
	if got := b.report("ada", "01-gvk-gvr", 1, true, ""); got != http.StatusTooManyRequests {
		t.Errorf("a second report within %s must be rate-limited, got %d", MinInterval, got)
	}
	b.now = b.now.Add(MinInterval)
	if got := b.report("ada", "01-gvk-gvr", 1, true, ""); got != http.StatusNoContent {
		t.Errorf("after %s the report is accepted, got %d", MinInterval, got)
	}
}

func TestBoardStateSurvivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.db")
	first := newTestBoard(t, path)
	first.report("ada", "02-clients", 3, true, "")
	if err := first.s.Close(); err != nil { // the instructor's laptop restarts
		t.Fatal(err)
	}
	again := newTestBoard(t, path)
	if again.s.Code() != first.s.Code() {
		t.Errorf("the join code changed across a restart")
	}
	if page := again.get("/"); !strings.Contains(page, ">ada<") || !strings.Contains(page, "02-clients #3") {
		t.Errorf("after a restart the board lost ada:\n%s", page)
	}
	if state := again.get("/api/state"); strings.Contains(state, again.s.Code()) {
		t.Errorf("the state API must not show the join code")
	}
}

// The learner's side: join, a check's results reach the board, and an unreachable board costs
// a check little and never fails it.
func TestLearnerJoinsAndReports(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	root := t.TempDir()
	if err := learner.Update(root, func(s *learner.State) {
		s.Exercise("01-gvk-gvr", 1).Checked(7, 7, "", time.Now())
		s.Exercise("01-gvk-gvr", 2).Checked(2, 6, "Expected /apis/apps/v1 to equal /api/v1", time.Now())
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := Join(t.Context(), root, b.srv.URL, "WRONG", "grace"); err == nil || !strings.Contains(err.Error(), "join code") {
		t.Errorf("a wrong code must be reported at join time, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(learner.Dir(root), "board.json")); err == nil {
		t.Errorf("a refused join must not be kept")
	}
	b.now = b.now.Add(time.Minute)
	joined := filepath.Join(learner.Dir(root), "board.json")
	_ = os.WriteFile(joined, []byte("{}"), 0o644) // an older workspace wrote it readable by all
	if _, err := Join(t.Context(), root, b.srv.URL, b.s.Code(), "grace"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(joined); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("board.json holds the join code: want mode 0600, got %v (%v)", fi.Mode().Perm(), err)
	}
	if page := b.get("/"); !strings.Contains(page, ">grace<") || !strings.Contains(page, `title="Expected /apis/apps/v1 to equal /api/v1"`) {
		t.Errorf("grace's results are not on the board:\n%s", page)
	}
	b.srv.Close()
	start := time.Now()
	Notify(root)
	if took := time.Since(start); took > 2*sendTimeout {
		t.Errorf("an unreachable board cost the check %s", took)
	}
	if log, _ := os.ReadFile(filepath.Join(learner.Dir(root), "board.log")); !strings.Contains(string(log), "did not answer") {
		t.Errorf("the failed report should be noted in board.log, got %q", log)
	}
}

func mustListen(t *testing.T, addr string) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// reportMistake sends a failing result of exercise n whose failure matched a known mistake.
func (b *testBoard) reportMistake(name, lesson string, n int, failure, mistake string) (int, string) {
	b.t.Helper()
	if b.secrets[name] == "" {
		b.join(name)
	}
	res := Result{Specs: 4, SpecsPassed: 2, CheckedAt: b.now, FirstFailure: failure, Mistake: mistake}
	body, _ := json.Marshal(Report{Learner: name, Lessons: map[string]map[int]Result{lesson: {n: res}}})
	return b.post(b.s.Code(), body)
}

// TestFailuresNameTheKnownMistake proves the failures view groups the learners stuck on one
// known mistake together, whatever spec failed first for each, under the mistake's sentence, and
// that a report naming something that is not a wrong solution's name is refused.
func TestFailuresNameTheKnownMistake(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"), Options{
		Mistakes: map[string]map[string]string{"02-clients": {"copies-data-only": "it copies Data only on update"}},
	})
	send := func(name, failure, mistake string) (int, string) {
		return b.reportMistake(name, "02-clients", 3, failure, mistake)
	}
	for name, failure := range map[string]string{"ada": "Expected binaryData", "grace": "Expected labels", "linus": "Expected binaryData"} {
		if status, msg := send(name, failure, "copies-data-only"); status/100 != 2 {
			t.Fatalf("report of %s: %d %s", name, status, msg)
		}
	}
	failures := b.get("/failures")
	if !strings.Contains(failures, "<td>3</td><td class=\"message\">known mistake: it copies Data only on update (copies-data-only)</td>") {
		t.Errorf("want the three learners in one group under the mistake's sentence:\n%s", failures)
	}
	if status, msg := send("ada", "x", "<b>bold</b>"); status != http.StatusBadRequest || !strings.Contains(msg, "not a wrong solution's name") {
		t.Errorf("want a mistake that is no wrong solution's name refused, got %d %s", status, msg)
	}
}
