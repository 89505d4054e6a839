package board

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"
)

// State is everything the board knows; it is saved to one JSON file after every accepted
// report (written to a temporary file and renamed, so a crash never leaves half a file), so
// restarting the instructor's laptop loses nothing.
type State struct {
	Code     string              `json:"code"`
	Learners map[string]*Learner `json:"learners"`
}

// Learner is one laptop's latest results and when it last moved forward.
type Learner struct {
	Name         string                      `json:"name"`
	LastReport   time.Time                   `json:"lastReport"`
	LastProgress time.Time                   `json:"lastProgress"`
	Lessons      map[string]map[int]Exercise `json:"lessons"`
}

// Exercise is a Result plus FailingSince: when the learner started failing it, for "stuck".
type Exercise struct {
	Result
	FailingSince time.Time `json:"failingSince,omitzero"`
}

func loadState(path string) (*State, error) {
	s := &State{Learners: map[string]*Learner{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		s.Code = newCode()
		return s, saveState(path, s)
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, errors.New(path + " is damaged (" + err.Error() + "): move it away to start a new board")
	}
	if s.Learners == nil {
		s.Learners = map[string]*Learner{}
	}
	if s.Code == "" {
		s.Code = newCode()
	}
	return s, nil
}

func saveState(path string, s *State) error {
	data, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".board-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// newCode is a join code easy to read aloud: 8 letters and digits without 0/O or 1/I/L.
func newCode() string {
	const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// apply merges a report into the learner's record at time now.
func (s *State) apply(r Report, now time.Time) {
	l := s.Learners[r.Learner]
	if l == nil {
		l = &Learner{Name: r.Learner, Lessons: map[string]map[int]Exercise{}, LastProgress: now}
		s.Learners[r.Learner] = l
	}
	l.LastReport = now
	for lesson, exercises := range r.Lessons {
		if l.Lessons[lesson] == nil {
			l.Lessons[lesson] = map[int]Exercise{}
		}
		for n, res := range exercises {
			before, seen := l.Lessons[lesson][n]
			e := Exercise{Result: res}
			failing := res.Specs > 0 && !res.Passed
			switch {
			case failing && seen && before.Specs > 0 && !before.Passed && !before.FailingSince.IsZero():
				e.FailingSince = before.FailingSince
			case failing:
				e.FailingSince = now
			}
			if res.SpecsPassed > before.SpecsPassed || (res.Passed && !before.Passed) {
				l.LastProgress = now
			}
			l.Lessons[lesson][n] = e
		}
	}
}
