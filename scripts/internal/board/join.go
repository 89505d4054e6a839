package board

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// secretHeader carries a learner's secret: the board gives it at join, the laptop keeps it in
// .progress/board.json (0600) and shows it with every report, so that knowing the join code
// (it is on the projector) is not enough to write someone else's results.
const secretHeader = "X-Learner-Secret"

// joinRequest is POST /api/join's body; joinAnswer its answer.
type joinRequest struct {
	Learner string `json:"learner"`
}

type joinAnswer struct {
	Learner string `json:"learner"` // the name as the board keeps it
	Secret  string `json:"secret"`
}

const maxJoinBytes = 1 << 10

// newSecret is 256 random bits, URL-safe.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashSecret is what the board stores of a secret: a copy of board.db lets nobody report.
func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

func (l *Learner) owns(secret string) bool {
	return l.SecretHash != "" && secret != "" &&
		subtle.ConstantTimeCompare([]byte(l.SecretHash), []byte(hashSecret(secret))) == 1
}

// refuseSecret says why a report for name, with secret, may not be taken ("" when it may).
func refuseSecret(l *Learner, name, secret string) string {
	switch {
	case l == nil:
		return fmt.Sprintf("%q is not on this board (it never joined, or the instructor removed it or cleared the board): run make join again", name)
	case secret == "" || l.SecretHash == "":
		return "this laptop joined before the board gave each learner a secret: run make join again (the same BOARD, CODE and NAME)"
	case !l.owns(secret):
		return fmt.Sprintf("%q is another laptop's name on this board: its results stay theirs. Join under your own name: make join again with NAME=...", name)
	}
	return ""
}

// find is the learner of that name, as a person reads it: case aside ("Ada" and "ada"), and
// letters that look alike taken as one (a Cyrillic "А" for the Latin "A": two such names look
// identical on the page, so one could pass for the other).
func (st *State) find(name string) *Learner {
	if l := st.Learners[name]; l != nil {
		return l
	}
	for _, l := range st.Learners {
		if sameName(l.Name, name) {
			return l
		}
	}
	return nil
}

// sameName compares two names by the confusable skeleton (Unicode's UTS #39) of their
// NFKC-case-folded forms: what is left of a name once fullwidth and other compatibility forms
// are plain letters (ＡＤＡ is ADA), case is gone, and every character is replaced by the one it
// can be mistaken for (a Cyrillic а by a Latin a).
func sameName(a, b string) bool {
	return strings.EqualFold(a, b) || nameSkeleton(a) == nameSkeleton(b)
}

func nameSkeleton(name string) string {
	return confusables.Skeleton(cases.Fold().String(norm.NFKC.String(name)))
}

// join gives a new learner a name on the board and its secret. A name already taken is refused,
// except to the laptop that holds its secret (make join again) and, once, for a learner kept
// from before the board gave secrets. A full board is refused.
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	if !s.limit(w, r, s.joins, "joins") || !s.codeOK(w, r) {
		return
	}
	var req joinRequest
	if !decode(w, r, maxJoinBytes, "join", &req) {
		return
	}
	name, err := validName(req.Learner)
	if err != nil {
		httpError(w, http.StatusBadRequest, "malformed join: "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l, secret := s.st.find(name), r.Header.Get(secretHeader)
	switch {
	case l != nil && l.owns(secret):
		writeJSON(w, http.StatusOK, joinAnswer{l.Name, secret})
		return
	case l != nil && l.SecretHash != "":
		httpError(w, http.StatusConflict, fmt.Sprintf("the name %q is taken on this board by another laptop: "+
			"make join again with another NAME=..., or ask the instructor to free it (make board-remove NAME=...)", l.Name))
		return
	case l == nil && len(s.st.Learners) >= s.opts.MaxLearners:
		httpError(w, http.StatusForbidden, fmt.Sprintf("the board is full (%d learners): ask the instructor to remove "+
			"someone (make board-remove) or to raise the limit (make classroom MAX_LEARNERS=...)", s.opts.MaxLearners))
		return
	}
	s.admit(w, l, name)
}

// admit records a new learner (or claims one kept from before secrets) with a fresh secret.
func (s *Server) admit(w http.ResponseWriter, l *Learner, name string) {
	now := s.now()
	if l == nil {
		l = &Learner{Name: name, Lessons: map[string]map[int]Exercise{}, LastProgress: now}
	}
	secret := newSecret()
	before := *l
	l.SecretHash, l.Joined = hashSecret(secret), now
	if err := s.store.saveLearner(l); err != nil {
		*l = before
		httpError(w, http.StatusInternalServerError, "the board could not save: "+err.Error())
		return
	}
	s.st.Learners[l.Name] = l
	writeJSON(w, http.StatusCreated, joinAnswer{l.Name, secret})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}
