package board

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// A learner who edits the specs and runs make sums makes the edited specs count on the laptop;
// the board still tells, by the digest of the specs each report was checked with, and marks the
// learner without refusing anything.
func TestTheBoardMarksALearnerWithOtherSpecs(t *testing.T) {
	instructors, edited := strings.Repeat("a", 64), strings.Repeat("b", 64)
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"), Options{SpecsDigest: instructors})
	send := func(name, digest string) {
		t.Helper()
		if status, msg := b.join(name); status != http.StatusCreated {
			t.Fatalf("join of %s: %d %s", name, status, msg)
		}
		body, _ := json.Marshal(Report{Learner: name, SpecsDigest: digest,
			Lessons: map[string]map[int]Result{"01-gvk-gvr": {1: {Passed: true, Specs: 4, SpecsPassed: 4, CheckedAt: b.now}}}})
		if status, msg := b.post(b.s.Code(), body); status != http.StatusNoContent {
			t.Fatalf("report of %s: %d %s", name, status, msg)
		}
	}
	send("ada", instructors)
	send("grace", edited)
	send("linus", "")
	page := b.get("/")
	for name, marked := range map[string]bool{"ada": false, "grace": true, "linus": true} {
		row := page[strings.Index(page, ">"+name):]
		row = row[:strings.Index(row, "</tr>")]
		if got := strings.Contains(row, "other specs"); got != marked {
			t.Errorf("%s's row marked as checked with other specs: %v, want %v\n%s", name, got, marked, row)
		}
	}
	bad, _ := json.Marshal(Report{Learner: "ada", SpecsDigest: "<script>", Lessons: map[string]map[int]Result{}})
	b.now = b.now.Add(2 * MinInterval)
	if status, _ := b.post(b.s.Code(), bad); status != http.StatusBadRequest {
		t.Errorf("a report whose digest is not a SHA-256: status %d, want 400", status)
	}
}
