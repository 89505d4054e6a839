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
	"workshop.local/scripts/internal/lessons"
)

// joined is .progress/board.json: where this laptop reports, with which code, name and secret
// (the board gives it at join; only this laptop may report under the name). Pending: the board
// did not answer make join yet, so the next check joins first.
type joined struct {
	Board   string `json:"board"`
	Code    string `json:"code"`
	Learner string `json:"learner"`
	Secret  string `json:"secret,omitempty"`
	Pending bool   `json:"pending,omitempty"`
}

func joinedPath(root string) string { return filepath.Join(learner.Dir(root), "board.json") }

// sendTimeout bounds a report: a board that is down or unreachable costs a check at most this.
const sendTimeout = 1500 * time.Millisecond

// Join joins the board (it gives this laptop its secret for the name), records it, and sends
// this laptop's results once, so the learner sees at once whether the address, code and name
// are right. name "" means $LEARNER, else user@host. Joining again from the same laptop under
// the same name keeps the name: the secret kept from last time proves it.
func Join(ctx context.Context, root, board, code, name string) (string, error) {
	u, err := url.Parse(board)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("BOARD=%q is not an address like http://192.168.1.20:8765 (the board prints it)", board)
	}
	if name = strings.TrimSpace(name); name == "" {
		name = defaultName()
	}
	j := joined{Board: strings.TrimSuffix(board, "/"), Code: strings.TrimSpace(code), Learner: name, Pending: true}
	if prev, err := readJoined(root); err == nil && prev.Board == j.Board && strings.EqualFold(prev.Learner, name) {
		j.Secret = prev.Secret
	}
	err = j.join(ctx)
	var refused *refusedError
	if errors.As(err, &refused) { // a wrong code, a taken name, a full board: forget it
		_ = os.Remove(joinedPath(root))
		return name, err
	}
	if serr := saveJoined(root, j); serr != nil {
		return name, serr
	}
	if err != nil { // not answering yet: kept, and the next check joins
		return name, err
	}
	err = Send(ctx, root)
	var tooFast *refusedError
	if errors.As(err, &tooFast) && tooFast.code == http.StatusTooManyRequests {
		return j.Learner, nil // joined again within a second of a report: the next check reports
	}
	if err != nil {
		return j.Learner, &FirstReportError{err}
	}
	return j.Learner, nil
}

// FirstReportError is a join that worked and is kept, whose first report did not get through.
type FirstReportError struct{ err error }

func (e *FirstReportError) Error() string {
	return "joined, but this laptop's results did not get to the board: " + e.err.Error()
}

func (e *FirstReportError) Unwrap() error { return e.err }

// join asks the board for this laptop's secret under its name.
func (j *joined) join(ctx context.Context) error {
	body, _ := json.Marshal(joinRequest{j.Learner})
	var answer joinAnswer
	if err := j.post(ctx, "/api/join", body, &answer); err != nil {
		return err
	}
	j.Learner, j.Secret, j.Pending = answer.Learner, answer.Secret, false
	return nil
}

// post sends body to the board with the join code and this laptop's secret.
func (j *joined) post(ctx context.Context, path string, body []byte, answer any) error {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.Board+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Join-Code", j.Code)
	if j.Secret != "" {
		req.Header.Set(secretHeader, j.Secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("the board at %s did not answer (%v); your checks work as usual", j.Board, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 500))
		fix := j.rejoin()
		if strings.HasPrefix(string(msg), wrongCode) { // a new board, or a new code: the one kept is no use
			fix = strings.Replace(fix, "CODE="+j.Code, "CODE=<the code the board shows>", 1)
		}
		return &refusedError{resp.StatusCode, resp.Status, strings.TrimSpace(string(msg)), fix}
	}
	if answer == nil {
		return nil
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(answer)
}

// rejoin is the command that joins this board again under this name.
func (j *joined) rejoin() string {
	return fmt.Sprintf("make join BOARD=%s CODE=%s NAME=%q", j.Board, j.Code, j.Learner)
}

// refusedError is the board answering no (wrong code, taken name, malformed report), as
// opposed to not answering at all, which a board that is not started yet does.
type refusedError struct {
	code             int
	status, msg, fix string
}

func (e *refusedError) Error() string {
	return "the board refused (" + e.status + "): " + e.msg
}

// needsJoin says whether only a new make join can make the board take this laptop's results
// (rather than a next check: too fast, or a board that does not answer).
func (e *refusedError) needsJoin() bool {
	return e.code == http.StatusForbidden || e.code == http.StatusConflict || e.code == 0
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

func readJoined(root string) (joined, error) {
	var j joined
	data, err := os.ReadFile(joinedPath(root))
	if err != nil {
		return j, err
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return j, fmt.Errorf("%s is damaged (%v): run make join again", joinedPath(root), err)
	}
	return j, nil
}

// saveJoined writes board.json: it holds the secret, so 0600, also when an older workspace
// wrote it readable by all.
func saveJoined(root string, j joined) error {
	data, _ := json.MarshalIndent(j, "", "  ")
	if err := os.MkdirAll(learner.Dir(root), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(joinedPath(root), data, 0o600); err != nil {
		return err
	}
	return os.Chmod(joinedPath(root), 0o600)
}

// Send reports this laptop's results to the board it joined; nil when it joined none.
func Send(ctx context.Context, root string) error {
	j, err := readJoined(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case j.Pending:
		if err := j.join(ctx); err != nil {
			var refused *refusedError
			if errors.As(err, &refused) {
				_ = os.Remove(joinedPath(root))
			}
			return err
		}
		if err := saveJoined(root, j); err != nil {
			return err
		}
	case j.Secret == "":
		return &refusedError{0, "not sent", "this workspace joined the board before it gave each learner a secret", j.rejoin()}
	}
	st, err := learner.Load(root)
	if err != nil {
		return err
	}
	report := reportOf(j.Learner, st)
	report.SpecsDigest, _ = lessons.SpecsDigest(root) // none: the board marks this laptop, which is right
	body, _ := json.Marshal(report)
	return j.post(ctx, "/api/report", body, nil)
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
				FirstFailure: truncate(e.FirstFailure, maxFailureRunes), CheckedAt: e.CheckedAt, HintsShown: e.HintsShown + len(e.MistakesNamed),
				Mistake: e.Mistake}
		}
	}
	return r
}

// notifyOut is where Notify says that only a new make join gets results to the board again.
var notifyOut io.Writer = os.Stderr

// Notify is Send for make check and make watch: it never fails them. A failed report is noted
// in .progress/board.log, once per check, and the check goes on; one that only make join can
// fix (removed by the instructor, another laptop's name, an old join) is also said on stderr.
func Notify(root string) {
	err := Send(context.Background(), root)
	if err == nil {
		return
	}
	line := time.Now().Format(time.RFC3339) + " " + err.Error() + "\n"
	if f, ferr := os.OpenFile(filepath.Join(learner.Dir(root), "board.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); ferr == nil {
		_, _ = f.WriteString(line)
		_ = f.Close()
	}
	var refused *refusedError
	if errors.As(err, &refused) && refused.needsJoin() {
		fmt.Fprintf(notifyOut, "The board did not take these results: %s.\nTo report again: %s\n", refused.msg, refused.fix)
	}
}
