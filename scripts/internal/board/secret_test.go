package board

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"workshop.local/scripts/internal/learner"
)

// The join code is on the projector: knowing it must not let anyone write another learner's
// results, nor take a name someone holds.
func TestBoardRefusesImpersonation(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	b.report("ada", "01-gvk-gvr", 1, true, "")
	adas := b.secrets["ada"]

	delete(b.secrets, "ada") // another laptop, with the code but not ada's secret
	// "аda" starts with a Cyrillic а, "ＡＤＡ" is in fullwidth letters: on the page each looks like ada.
	for _, name := range []string{"ada", "ADA", " ada ", "\u0430da", "\uff21\uff24\uff21"} {
		if status, msg := b.join(name); status != http.StatusConflict || !strings.Contains(msg, "taken") || !strings.Contains(msg, "make board-remove") {
			t.Errorf("joining as %q, ada's name: got %d %q, want 409 saying it is taken", name, status, msg)
		}
	}
	b.now = b.now.Add(time.Second) // past MinInterval: only the secret stands in the way
	forged, _ := json.Marshal(Report{Learner: "ada", Lessons: map[string]map[int]Result{"01-gvk-gvr": {1: {Specs: 4, FirstFailure: "forged"}}}})
	for secret, words := range map[string]string{"": "make join again", "guessed": "another laptop's name", adas + "x": "another laptop's name"} {
		status, msg := b.call(http.MethodPost, "/api/report", "", map[string]string{"X-Join-Code": b.s.Code(), secretHeader: secret}, forged)
		if status != http.StatusForbidden || !strings.Contains(msg, words) {
			t.Errorf("a report as ada with secret %q: got %d %q, want 403 with %q", secret, status, msg, words)
		}
	}
	if page := b.get("/"); strings.Contains(page, "forged") || !strings.Contains(page, `class="passed"`) {
		t.Errorf("a forged report reached the board:\n%s", page)
	}
	b.secrets["ada"] = adas
	if got := b.report("ada", "01-gvk-gvr", 2, true, ""); got != http.StatusNoContent {
		t.Errorf("ada's own laptop: %d", got)
	}
	db, _ := os.ReadFile(b.path)
	state := b.get("/api/state")
	if bytes.Contains(db, []byte(adas)) || strings.Contains(state, adas) || strings.Contains(state, hashSecret(adas)) {
		t.Errorf("the secret must be kept only as a hash, and never served")
	}
}

// make join again on the same laptop keeps the name; another laptop cannot have it.
func TestLearnerJoinsAgainFromTheSameLaptopOnly(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	mine, other := t.TempDir(), t.TempDir()
	if _, err := Join(t.Context(), mine, b.srv.URL, b.s.Code(), "grace"); err != nil {
		t.Fatal(err)
	}
	j, err := readJoined(mine)
	if err != nil || len(j.Secret) < 22 || j.Pending { // 22 base64 characters are 128 bits
		t.Fatalf("board.json must keep a secret of 128 bits or more: %+v %v", j, err)
	}
	if _, err := Join(t.Context(), mine, b.srv.URL, b.s.Code(), "grace"); err != nil { // within the second
		t.Errorf("joining again from the same laptop: %v", err)
	}
	_, err = Join(t.Context(), other, b.srv.URL, b.s.Code(), "Grace")
	if err == nil || !strings.Contains(err.Error(), "taken") {
		t.Errorf("another laptop joining as Grace: %v, want the name is taken", err)
	}
	if _, serr := os.Stat(joinedPath(other)); serr == nil {
		t.Errorf("a refused join must not be kept")
	}
}

// A workspace that joined before secrets has none: its checks say to join again, and the board
// refuses a report without one.
func TestLearnerOfAnOlderJoinIsToldToJoinAgain(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	root := t.TempDir()
	_ = os.MkdirAll(learner.Dir(root), 0o755)
	old := `{"board": "` + b.srv.URL + `", "code": "` + b.s.Code() + `", "learner": "ada"}`
	if err := os.WriteFile(joinedPath(root), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	var said bytes.Buffer
	notifyOut = &said
	t.Cleanup(func() { notifyOut = os.Stderr })
	Notify(root)
	want := "make join BOARD=" + b.srv.URL + " CODE=" + b.s.Code() + ` NAME="ada"`
	if !strings.Contains(said.String(), "before it gave each learner a secret") || !strings.Contains(said.String(), want) {
		t.Errorf("the learner must be told to join again (%s), got %q", want, said.String())
	}
	b.report("bob", "01-gvk-gvr", 1, true, "")
	b.now = b.now.Add(time.Second)
	body, _ := json.Marshal(Report{Learner: "bob"})
	status, msg := b.call(http.MethodPost, "/api/report", "", map[string]string{"X-Join-Code": b.s.Code()}, body)
	if status != http.StatusForbidden || !strings.Contains(msg, "run make join again") {
		t.Errorf("a report without a secret: %d %q", status, msg)
	}
}

// A learner kept from a board before secrets stays on the page, and the first to join under
// the name claims it.
func TestLearnerKeptFromBeforeSecretsIsClaimedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.db")
	first := newTestBoard(t, path)
	_ = first.s.Close()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	legacy := `{"name":"linus","lessons":{"01-gvk-gvr":{"1":{"passed":true,"specsPassed":4,"specs":4}}}}`
	_ = db.Update(func(tx *bolt.Tx) error { return tx.Bucket(learnersBucket).Put([]byte("linus"), []byte(legacy)) })
	_ = db.Close()
	b := newTestBoard(t, path)
	if page := b.get("/"); !strings.Contains(page, ">linus<") {
		t.Fatalf("the kept learner is not shown:\n%s", page)
	}
	if status, msg := b.join("linus"); status != http.StatusCreated {
		t.Errorf("claiming linus: %d %s", status, msg)
	}
	delete(b.secrets, "linus")
	if status, _ := b.join("linus"); status != http.StatusConflict {
		t.Errorf("a second claim of linus: %d, want 409", status)
	}
}

// make join before the board is up is kept; the first check once it is up joins and reports.
// A learner the instructor removed is told, at their next check, how to join again.
func TestLearnerJoinsABoardThatStartsLaterAndHearsOfARemoval(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	root := t.TempDir()
	if err := learner.Update(root, func(s *learner.State) { s.Exercise("01-gvk-gvr", 1).Checked(7, 7, "", time.Now()) }); err != nil {
		t.Fatal(err)
	}
	url := b.srv.URL
	b.srv.Close() // not started yet
	if _, err := Join(t.Context(), root, url, b.s.Code(), "ada"); err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("joining a board that is not up: %v", err)
	}
	if j, err := readJoined(root); err != nil || !j.Pending {
		t.Fatalf("the join must be kept, pending: %+v %v", j, err)
	}
	b.srv = httptest.NewUnstartedServer(b.s.Handler())
	b.srv.Listener.Close()
	b.srv.Listener = mustListen(t, strings.TrimPrefix(url, "http://"))
	b.srv.Start()
	Notify(root)
	if page := b.get("/"); !strings.Contains(page, ">ada<") || !strings.Contains(page, `class="passed"`) {
		t.Fatalf("the first check after the board came up did not join and report:\n%s", page)
	}
	var said bytes.Buffer
	notifyOut = &said
	t.Cleanup(func() { notifyOut = os.Stderr })
	if _, err := Remove(t.Context(), b.adminFile(), "ada"); err != nil {
		t.Fatal(err)
	}
	b.now = b.now.Add(time.Second)
	Notify(root)
	if !strings.Contains(said.String(), "removed") || !strings.Contains(said.String(), `make join BOARD=`+url+` CODE=`+b.s.Code()+` NAME="ada"`) {
		t.Errorf("a removed learner must be told how to join again, got %q", said.String())
	}
}

// After a clear with a new code, the learner's check says to join with the code the board
// shows, not the one kept.
func TestLearnerWithAnOldCodeIsToldToGetTheNewOne(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	root := t.TempDir()
	if _, err := Join(t.Context(), root, b.srv.URL, b.s.Code(), "ada"); err != nil {
		t.Fatal(err)
	}
	old := b.s.Code()
	if _, err := Clear(t.Context(), b.adminFile(), true); err != nil {
		t.Fatal(err)
	}
	var said bytes.Buffer
	notifyOut = &said
	t.Cleanup(func() { notifyOut = os.Stderr })
	b.now = b.now.Add(time.Second)
	Notify(root)
	if !strings.Contains(said.String(), `CODE=<the code the board shows> NAME="ada"`) || strings.Contains(said.String(), old) {
		t.Errorf("the learner must be told to get the new code, got %q", said.String())
	}
}

// A join that worked is kept even when its first report is refused, and says so.
func TestLearnerJoinedWhoseFirstReportIsRefused(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"), Options{Lessons: Catalog{"01-gvk-gvr": {1, 2, 3, 4}}})
	root := t.TempDir()
	if err := learner.Update(root, func(s *learner.State) { s.Exercise("99-elsewhere", 1).Checked(1, 1, "", time.Now()) }); err != nil {
		t.Fatal(err)
	}
	_, err := Join(t.Context(), root, b.srv.URL, b.s.Code(), "ada")
	var first *FirstReportError
	if !errors.As(err, &first) || !strings.Contains(err.Error(), "not a lesson of this workshop") {
		t.Errorf("want the join kept and the refused report said, got %v", err)
	}
	if j, err := readJoined(root); err != nil || j.Secret == "" {
		t.Errorf("the join must be kept: %+v %v", j, err)
	}
}
