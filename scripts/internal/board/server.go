package board

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// MinInterval is the shortest time between two accepted reports of one learner: make watch
// reports on every save, and a loop gone wrong must not flood the board.
const MinInterval = time.Second

// StuckAfter is how long failing the same exercise counts as stuck on the page.
const StuckAfter = 15 * time.Minute

// DefaultMaxLearners is how many learners a board takes unless the instructor says otherwise
// (make classroom MAX_LEARNERS=100); MaxMaxLearners bounds what they can say.
const (
	DefaultMaxLearners = 60
	MaxMaxLearners     = 1000
)

// Options are the instructor's settings of a board.
type Options struct {
	MaxLearners int     // learners the board takes; 0 is DefaultMaxLearners
	Lessons     Catalog // the lessons and exercises it keeps; nil takes any (tests)
	// SpecsDigest is the digest of the instructor's specs (lessons.SpecsDigest); a learner who
	// reports another is marked on the page ("" marks nobody).
	SpecsDigest string
	// Mistakes are the sentences of the known mistakes, by lesson and wrong solution name: the
	// failures view names the mistake a group of learners is stuck on (nil: by name only).
	Mistakes map[string]map[string]string
}

// Server is the board: the state, its database, and the HTTP handlers.
type Server struct {
	store   *store
	now     func() time.Time
	opts    Options
	admin   string // the instructor's token for /admin/, new at every start, never stored
	joins   *limiter
	reports *limiter
	reads   *limiter
	mu      sync.Mutex
	st      *State
}

// Open loads (or creates, with a fresh join code) the board saved in the database file at path.
// Close it when done: the file stays locked while it is open.
func Open(path string, opts Options) (*Server, error) {
	if opts.MaxLearners == 0 {
		opts.MaxLearners = DefaultMaxLearners
	}
	if opts.MaxLearners < 1 || opts.MaxLearners > MaxMaxLearners {
		return nil, fmt.Errorf("MAX_LEARNERS=%d: give 1 to %d", opts.MaxLearners, MaxMaxLearners)
	}
	db, st, err := openStore(path)
	if err != nil {
		return nil, err
	}
	return &Server{store: db, now: time.Now, opts: opts, st: st, admin: newSecret(),
		joins: newLimiter(joinRate), reports: newLimiter(reportRate), reads: newLimiter(readRate)}, nil
}

// Close closes the board's database.
func (s *Server) Close() error { return s.store.close() }

// Code is the join code learners need.
func (s *Server) Code() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.Code
}

// AdminToken is what the instructor's commands (make board-remove, make board-clear) must show.
func (s *Server) AdminToken() string { return s.admin }

// MaxLearners is how many learners the board takes.
func (s *Server) MaxLearners() int { return s.opts.MaxLearners }

// Handler serves the page (/), the failures view (/failures), the state as JSON (/api/state),
// joins (POST /api/join), reports (POST /api/report) and the instructor's actions (/admin/).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.readLimited(s.page))
	mux.HandleFunc("GET /failures", s.readLimited(s.failures))
	mux.HandleFunc("GET /api/state", s.readLimited(s.stateJSON))
	mux.HandleFunc("POST /api/join", s.join)
	mux.HandleFunc("POST /api/report", s.report)
	mux.HandleFunc("POST /admin/remove", s.instructor(s.remove))
	mux.HandleFunc("POST /admin/clear", s.instructor(s.clear))
	return mux
}

// readLimited bounds page loads per address: each one builds a page under the board's lock.
func (s *Server) readLimited(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.limit(w, r, s.reads, "page loads") {
			h(w, r)
		}
	}
}

const wrongCode = "wrong or missing join code"

// codeOK answers 403 and returns false when the request lacks the join code.
func (s *Server) codeOK(w http.ResponseWriter, r *http.Request) bool {
	if subtle.ConstantTimeCompare([]byte(r.Header.Get("X-Join-Code")), []byte(s.Code())) == 1 {
		return true
	}
	httpError(w, http.StatusForbidden, wrongCode+": make join BOARD=... CODE=<the code the board shows>")
	return false
}

// decode reads a small JSON body strictly: 413 above max bytes, 400 for anything malformed.
func decode(w http.ResponseWriter, r *http.Request, limit int64, what string, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%s larger than %d bytes", what, limit))
	case err != nil:
		httpError(w, http.StatusBadRequest, "malformed "+what+": "+err.Error())
	}
	return err == nil
}

// report accepts one learner's results: the address must be under its rate, the join code must
// match, the body must be a small valid Report, the secret the learner's laptop got at join
// must match, and the learner must not report more often than MinInterval.
func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	if !s.limit(w, r, s.reports, "reports") || !s.codeOK(w, r) {
		return
	}
	var rep Report
	if !decode(w, r, MaxReportBytes, "report", &rep) {
		return
	}
	if err := rep.Validate(s.opts.Lessons); err != nil {
		httpError(w, http.StatusBadRequest, "malformed report: "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.st.Learners[rep.Learner]
	if msg := refuseSecret(l, rep.Learner, r.Header.Get(secretHeader)); msg != "" {
		httpError(w, http.StatusForbidden, msg)
		return
	}
	now := s.now()
	if now.Sub(l.LastReport) < MinInterval {
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusTooManyRequests, "too many reports: at most one per second per learner")
		return
	}
	s.st.apply(rep, now)
	if err := s.store.saveLearner(l); err != nil {
		httpError(w, http.StatusInternalServerError, "the board could not save: "+err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) stateJSON(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	data, err := json.Marshal(s.st.Learners) // never the join code, never a secret's hash
	s.mu.Unlock()
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}

func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintln(w, strings.TrimSpace(msg))
}
