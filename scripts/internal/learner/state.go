// Package learner keeps what the learner's loop remembers between runs (which exercises pass,
// which hints were shown, which solutions were revealed early) and does what the loop offers
// besides checking: graded hints from the README, resetting an exercise from git with a backup,
// and revealing a solution as a diff. Its state lives in .progress/ at the workspace root:
// git-ignored, and untouched by `make cluster-down`.
package learner

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"
)

// Dir is the state folder at the workspace root.
func Dir(root string) string { return filepath.Join(root, ".progress") }

// State is everything remembered, by lesson folder name ("01-gvk-gvr").
type State struct {
	Lessons map[string]*Lesson `json:"lessons"`
}

// Lesson is what is remembered of one lesson, by exercise number.
type Lesson struct {
	Exercises map[int]*Exercise `json:"exercises"`
}

// Exercise is one exercise's state as the learner's last check of it left it.
type Exercise struct {
	Passed       bool      `json:"passed"`
	SpecsPassed  int       `json:"specsPassed"`
	Specs        int       `json:"specs"`
	FirstFailure string    `json:"firstFailure,omitempty"`
	CheckedAt    time.Time `json:"checkedAt,omitzero"`
	// PassedAt is the first time it passed; a later failing check does not clear it.
	PassedAt   time.Time `json:"passedAt,omitzero"`
	HintsShown int       `json:"hintsShown"`
	// Mistake is the known mistake (a wrong solution's name) whose signature the last failing
	// check of this exercise matched, alone; "" when none or several did.
	Mistake string `json:"mistake,omitempty"`
	// MistakesNamed are the known mistakes make hint has named: each counts as a hint used.
	MistakesNamed []string `json:"mistakesNamed,omitempty"`
	// SolutionForced records a solution shown with FORCE=1 before the exercise passed.
	SolutionForced bool      `json:"solutionForced,omitempty"`
	ResetAt        time.Time `json:"resetAt,omitzero"`
}

// Exercise returns the state of one exercise, creating it empty.
func (s *State) Exercise(lesson string, n int) *Exercise {
	if s.Lessons == nil {
		s.Lessons = map[string]*Lesson{}
	}
	l := s.Lessons[lesson]
	if l == nil {
		l = &Lesson{Exercises: map[int]*Exercise{}}
		s.Lessons[lesson] = l
	}
	e := l.Exercises[n]
	if e == nil {
		e = &Exercise{}
		l.Exercises[n] = e
	}
	return e
}

// Peek returns the state of one exercise, or the zero state, without creating it.
func (s *State) Peek(lesson string, n int) Exercise {
	if l := s.Lessons[lesson]; l != nil && l.Exercises[n] != nil {
		return *l.Exercises[n]
	}
	return Exercise{}
}

func statePath(root string) string { return filepath.Join(Dir(root), "state.json") }

// Load reads the state; a workspace without one has an empty state.
func Load(root string) (*State, error) {
	s := &State{}
	data, err := os.ReadFile(statePath(root))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, errors.New(statePath(root) + " is damaged (" + err.Error() + "): delete it to start the record afresh")
	}
	return s, nil
}

// Update loads the state, lets change edit it and writes it back. The write is a rename, so a
// check in another terminal never reads half a file.
func Update(root string, change func(*State)) error {
	s, err := Load(root)
	if err != nil {
		return err
	}
	change(s)
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(Dir(root), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(Dir(root), "state-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), statePath(root))
}

// Checked records a check's outcome for one exercise.
func (e *Exercise) Checked(passed, total int, firstFailure string, at time.Time) {
	e.SpecsPassed, e.Specs, e.CheckedAt = passed, total, at
	e.Passed = total > 0 && passed == total
	e.FirstFailure = ""
	if !e.Passed {
		e.FirstFailure = firstFailure
	}
	if e.Passed && e.PassedAt.IsZero() {
		e.PassedAt = at
	}
}
