package board

import (
	"cmp"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
)

// The instructor's actions (remove a learner, clear the board) need the admin token, which the
// serving process makes at every start and writes only to a 0600 file beside the database, and
// they are taken only from the board's own machine: the join code, on the projector, is not
// enough, and neither is the token seen from another laptop.
func (s *Server) instructor(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !fromThisMachine(r) {
			httpError(w, http.StatusForbidden, "the instructor's actions are taken only on the board's own laptop")
			return
		}
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if subtle.ConstantTimeCompare([]byte(token), []byte(s.admin)) != 1 {
			httpError(w, http.StatusForbidden, "wrong instructor token: is this the board that make classroom started last?")
			return
		}
		h(w, r)
	}
}

// fromThisMachine: the request comes from loopback, or from the very address it reached (the
// board's own laptop using its LAN address).
func fromThisMachine(r *http.Request) bool {
	remote, _, err := net.SplitHostPort(r.RemoteAddr)
	ip := net.ParseIP(remote)
	if err != nil || ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	host, _, err := net.SplitHostPort(local.String())
	return err == nil && net.ParseIP(host).Equal(ip)
}

// removeRequest is /admin/remove's body; clearRequest /admin/clear's; ClearAnswer its answer.
type removeRequest struct {
	Learner string `json:"learner"`
}

type clearRequest struct {
	NewCode bool `json:"newCode"`
}

// ClearAnswer is what make board-clear reports: how many learners went, and the join code.
type ClearAnswer struct {
	Removed int    `json:"removed"`
	Code    string `json:"code"`
}

// remove deletes one learner: their name is free again, their laptop's reports are refused.
func (s *Server) remove(w http.ResponseWriter, r *http.Request) {
	var req removeRequest
	if !decode(w, r, maxJoinBytes, "request", &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.st.find(strings.TrimSpace(req.Learner))
	if l == nil {
		httpError(w, http.StatusNotFound, fmt.Sprintf("no learner %q on the board; on it: %s", req.Learner, s.someNames(10)))
		return
	}
	if err := s.store.deleteLearner(l.Name); err != nil {
		httpError(w, http.StatusInternalServerError, "the board could not save: "+err.Error())
		return
	}
	delete(s.st.Learners, l.Name)
	writeJSON(w, http.StatusOK, removeRequest{l.Name})
}

// clear removes every learner (and gives a new join code if asked), then compacts the file.
func (s *Server) clear(w http.ResponseWriter, r *http.Request) {
	var req clearRequest
	if !decode(w, r, maxJoinBytes, "request", &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	code := ""
	if req.NewCode {
		code = newCode()
	}
	if err := s.store.clear(code); err != nil {
		httpError(w, http.StatusInternalServerError, "the board could not save: "+err.Error())
		return
	}
	removed := len(s.st.Learners)
	s.st.Learners = map[string]*Learner{}
	if code != "" {
		s.st.Code = code
	}
	if err := s.store.compact(); err != nil {
		httpError(w, http.StatusInternalServerError, "cleared, but the file could not be compacted ("+err.Error()+"): restart the board")
		return
	}
	writeJSON(w, http.StatusOK, ClearAnswer{removed, s.st.Code})
}

// someNames lists up to n learners' names, for a message.
func (s *Server) someNames(n int) string {
	var names []string
	for name := range s.st.Learners {
		names = append(names, fmt.Sprintf("%q", name))
	}
	if len(names) == 0 {
		return "nobody"
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(strings.ToLower(a), strings.ToLower(b)) })
	if len(names) > n {
		return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
	}
	return strings.Join(names, ", ")
}
