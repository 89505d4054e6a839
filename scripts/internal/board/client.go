package board

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"workshop.local/scripts/internal/learner"
)

// joined is .progress/board.json: where this laptop reports, with which code and name.
type joined struct {
	Board   string `json:"board"`
	Code    string `json:"code"`
	Learner string `json:"learner"`
}

func joinedPath(root string) string { return filepath.Join(learner.Dir(root), "board.json") }

// sendTimeout bounds a report: a board that is down or unreachable costs a check at most this.
const sendTimeout = 1500 * time.Millisecond

// Join records the board and sends this laptop's results once, so the learner sees at once
// whether the address and code are right. name "" means $LEARNER, else user@host.
func Join(ctx context.Context, root, board, code, name string) (string, error) {
	u, err := url.Parse(board)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("BOARD=%q is not an address like http://192.168.1.20:8765 (the board prints it)", board)
	}
	if name == "" {
		name = defaultName()
	}
	j := joined{Board: strings.TrimSuffix(board, "/"), Code: strings.TrimSpace(code), Learner: name}
	data, _ := json.MarshalIndent(j, "", "  ")
	if err := os.MkdirAll(learner.Dir(root), 0o755); err != nil {
		return "", err
	}
	// It holds the join code: 0600, also when an older workspace wrote it readable by all.
	if err := os.WriteFile(joinedPath(root), data, 0o600); err != nil {
		return "", err
	}
	if err := os.Chmod(joinedPath(root), 0o600); err != nil {
		return "", err
	}
	err = Send(ctx, root)
	var refused *refusedError
	if errors.As(err, &refused) { // a wrong code or name: do not keep sending refused reports
		_ = os.Remove(joinedPath(root))
	}
	return name, err
}

// refusedError is the board answering no (wrong code, malformed report), as opposed to not
// answering at all, which a board that is not started yet does.
type refusedError struct{ status, msg string }

func (e *refusedError) Error() string {
	return "the board refused the report (" + e.status + "): " + e.msg
}

func defaultName() string {
	if n := os.Getenv("LEARNER"); n != "" {
		return n
	}
	name := "learner"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	if h, err := os.Hostname(); err == nil {
		name += "@" + strings.Split(h, ".")[0]
	}
	return truncate(name, maxNameRunes)
}

// Send reports this laptop's results to the board it joined; nil when it joined none.
func Send(ctx context.Context, root string) error {
	data, err := os.ReadFile(joinedPath(root))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	var j joined
	if err == nil {
		err = json.Unmarshal(data, &j)
	}
	if err != nil {
		return fmt.Errorf("%s is damaged (%v): run make join again", joinedPath(root), err)
	}
	st, err := learner.Load(root)
	if err != nil {
		return err
	}
	body, _ := json.Marshal(reportOf(j.Learner, st))
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.Board+"/api/report", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Join-Code", j.Code)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("the board at %s did not answer (%v); your checks work as usual", j.Board, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 500))
		return &refusedError{resp.Status, strings.TrimSpace(string(msg))}
	}
	return nil
}

// reportOf keeps only results from the learner's state: no code, no file names, no reset backups.
func reportOf(name string, st *learner.State) Report {
	r := Report{Learner: name, Lessons: map[string]map[int]Result{}}
	for lesson, l := range st.Lessons {
		for n, e := range l.Exercises {
			if e.CheckedAt.IsZero() {
				continue
			}
			if r.Lessons[lesson] == nil {
				r.Lessons[lesson] = map[int]Result{}
			}
			r.Lessons[lesson][n] = Result{Passed: e.Passed, SpecsPassed: e.SpecsPassed, Specs: e.Specs,
				FirstFailure: truncate(e.FirstFailure, maxFailureRunes), CheckedAt: e.CheckedAt, HintsShown: e.HintsShown}
		}
	}
	return r
}

// Notify is Send for make check and make watch: it never fails them. A failed report is noted
// in .progress/board.log, once per check, and the check goes on.
func Notify(root string) {
	if err := Send(context.Background(), root); err != nil {
		line := time.Now().Format(time.RFC3339) + " " + err.Error() + "\n"
		if f, ferr := os.OpenFile(filepath.Join(learner.Dir(root), "board.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); ferr == nil {
			_, _ = f.WriteString(line)
			_ = f.Close()
		}
	}
}
