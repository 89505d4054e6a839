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
)

// adminFile writes the file make classroom leaves for the instructor's commands.
func (b *testBoard) adminFile() string {
	b.t.Helper()
	path := AdminFile(b.path)
	if err := WriteAdminFile(path, b.srv.URL, b.s.AdminToken()); err != nil {
		b.t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		b.t.Fatalf("the admin file holds the instructor's token: want 0600, got %v %v", fi.Mode().Perm(), err)
	}
	return path
}

func TestInstructorRemovesALearner(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	b.report("ada", "01-gvk-gvr", 1, true, "")
	b.report("linus", "01-gvk-gvr", 1, true, "")
	admin := b.adminFile()

	if _, err := Remove(t.Context(), admin, "grace"); err == nil || !strings.Contains(err.Error(), `"ada", "linus"`) {
		t.Errorf("removing someone not on the board must list who is: %v", err)
	}
	name, err := Remove(t.Context(), admin, "ADA")
	if err != nil || name != "ada" {
		t.Fatalf("remove ADA: %q %v", name, err)
	}
	if page := b.get("/"); strings.Contains(page, ">ada<") || !strings.Contains(page, ">linus<") {
		t.Errorf("ada must be off the board, linus on it:\n%s", page)
	}
	b.now = b.now.Add(time.Second)
	body, _ := json.Marshal(Report{Learner: "ada"})
	if status, msg := b.post(b.s.Code(), body); status != http.StatusForbidden || !strings.Contains(msg, "removed") {
		t.Errorf("the removed laptop's report: %d %q", status, msg)
	}
	delete(b.secrets, "ada")
	if status, msg := b.join("ada"); status != http.StatusCreated {
		t.Errorf("the freed name: %d %s", status, msg)
	}
}

func TestInstructorClearsTheBoard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.db")
	b := newTestBoard(t, path)
	for i := range 5 {
		b.report(fmt.Sprintf("learner-%d", i), "01-gvk-gvr", 1, false, "Expected")
	}
	oldCode := b.s.Code()
	answer, err := Clear(t.Context(), b.adminFile(), true)
	if err != nil || answer.Removed != 5 || answer.Code == oldCode || answer.Code != b.s.Code() {
		t.Fatalf("clear with a new code: %+v %v (old code %s)", answer, err, oldCode)
	}
	if page := b.get("/"); strings.Contains(page, "learner-") {
		t.Errorf("the board is not empty:\n%s", page)
	}
	body, _ := json.Marshal(joinRequest{"ada"})
	if status, _ := b.call(http.MethodPost, "/api/join", "", map[string]string{"X-Join-Code": oldCode}, body); status != http.StatusForbidden {
		t.Errorf("the old code must no longer work: %d", status)
	}
	_ = b.s.Close()
	again := newTestBoard(t, path)
	if again.s.Code() != answer.Code || len(again.s.st.Learners) != 0 {
		t.Errorf("after a restart: code %s, %d learners", again.s.Code(), len(again.s.st.Learners))
	}
}

// Only the instructor, on the board's laptop, with the token of this run of the board.
func TestBoardActionsNeedTheInstructorsTokenAndLaptop(t *testing.T) {
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"))
	b.report("ada", "01-gvk-gvr", 1, true, "")
	body := []byte(`{"learner":"ada"}`)
	for _, tc := range []struct{ what, from, token, words string }{
		{"no token", "", "", "wrong instructor token"},
		{"the join code", "", b.s.Code(), "wrong instructor token"},
		{"a learner's secret", "", b.secrets["ada"], "wrong instructor token"},
		{"the token, from another laptop", "192.0.2.7:50000", b.s.AdminToken(), "only on the board's own laptop"},
	} {
		status, msg := b.call(http.MethodPost, "/admin/remove", tc.from, map[string]string{"Authorization": "Bearer " + tc.token}, body)
		if status != http.StatusForbidden || !strings.Contains(msg, tc.words) {
			t.Errorf("%s: got %d %q, want 403 with %q", tc.what, status, msg, tc.words)
		}
	}
	if status, _ := b.call(http.MethodPost, "/admin/clear", "", map[string]string{"Authorization": "Bearer " + b.s.Code()}, []byte(`{}`)); status != http.StatusForbidden {
		t.Errorf("clear with the join code: %d", status)
	}
	if !strings.Contains(b.get("/"), ">ada<") {
		t.Errorf("ada was removed without the token")
	}
	if _, err := Remove(t.Context(), filepath.Join(t.TempDir(), "none.admin"), "ada"); err == nil || !strings.Contains(err.Error(), "make classroom") {
		t.Errorf("with no board running: %v", err)
	}
}
