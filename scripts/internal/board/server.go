package board

import (
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

// Server is the board: the state, its database, and the HTTP handlers.
type Server struct {
	store *store
	now   func() time.Time
	mu    sync.Mutex
	st    *State
}

// Open loads (or creates, with a fresh join code) the board saved in the database file at path.
// Close it when done: the file stays locked while it is open.
func Open(path string) (*Server, error) {
	db, st, err := openStore(path)
	if err != nil {
		return nil, err
	}
	return &Server{store: db, now: time.Now, st: st}, nil
}

// Close closes the board's database.
func (s *Server) Close() error { return s.store.close() }

// Code is the join code learners need.
func (s *Server) Code() string { return s.st.Code }

// Handler serves the page (/), the failures view (/failures), the state as JSON (/api/state)
// and the reports (POST /api/report).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /failures", s.failures)
	mux.HandleFunc("GET /api/state", s.stateJSON)
	mux.HandleFunc("POST /api/report", s.report)
	return mux
}

// report accepts one learner's results: the join code must match, the body must be a small
// valid Report, and the learner must not report more often than MinInterval.
func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Join-Code") != s.st.Code {
		httpError(w, http.StatusForbidden, "wrong or missing join code: make join BOARD=... CODE=<the code the board shows>")
		return
	}
	var rep Report
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxReportBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("report larger than %d bytes", MaxReportBytes))
			return
		}
		httpError(w, http.StatusBadRequest, "malformed report: "+err.Error())
		return
	}
	if err := rep.Validate(); err != nil {
		httpError(w, http.StatusBadRequest, "malformed report: "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if l := s.st.Learners[rep.Learner]; l != nil && now.Sub(l.LastReport) < MinInterval {
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusTooManyRequests, "too many reports: at most one per second per learner")
		return
	}
	s.st.apply(rep, now)
	if err := s.store.saveLearner(s.st.Learners[rep.Learner]); err != nil {
		httpError(w, http.StatusInternalServerError, "the board could not save: "+err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) stateJSON(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	data, err := json.Marshal(s.st.Learners) // never the join code
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
