// Package board is the instructor's board (make classroom) and the learner's side of it
// (make join, then every make check / make watch reports): per-exercise results only, never code.
package board

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Report is what a learner's laptop sends after each check: the state of every exercise it
// has checked, as .progress/state.json holds it, minus everything but results.
type Report struct {
	Learner string                    `json:"learner"`
	Lessons map[string]map[int]Result `json:"lessons"`
}

// Result is one exercise's last check.
type Result struct {
	Passed       bool      `json:"passed"`
	SpecsPassed  int       `json:"specsPassed"`
	Specs        int       `json:"specs"`
	FirstFailure string    `json:"firstFailure,omitempty"`
	CheckedAt    time.Time `json:"checkedAt"`
	HintsShown   int       `json:"hintsShown,omitempty"`
}

// Limits on what the board accepts, so one broken or hostile laptop cannot fill its memory.
const (
	MaxReportBytes   = 64 << 10
	maxNameRunes     = 40
	maxLessons       = 40
	maxExercises     = 20
	maxFailureRunes  = 300
	maxSpecsPerCheck = 500
)

var lessonName = regexp.MustCompile(`^\d\d-[a-z0-9-]{1,40}$`)

// Validate refuses a malformed report with a message the learner's tool can show, and trims
// failure messages to a length the page can show.
func (r *Report) Validate() error {
	r.Learner = strings.TrimSpace(r.Learner)
	n := utf8.RuneCountInString(r.Learner)
	if n == 0 || n > maxNameRunes || strings.IndexFunc(r.Learner, func(c rune) bool { return !unicode.IsPrint(c) }) >= 0 {
		return fmt.Errorf("learner name must be 1 to %d printable characters", maxNameRunes)
	}
	if len(r.Lessons) > maxLessons {
		return fmt.Errorf("at most %d lessons per report", maxLessons)
	}
	for lesson, exercises := range r.Lessons {
		if !lessonName.MatchString(lesson) {
			return fmt.Errorf("%q is not a lesson folder name like 01-gvk-gvr", lesson)
		}
		for n, res := range exercises {
			if n < 1 || n > maxExercises {
				return fmt.Errorf("lesson %s: exercise %d is out of range 1..%d", lesson, n, maxExercises)
			}
			if res.Specs < 0 || res.SpecsPassed < 0 || res.SpecsPassed > res.Specs || res.Specs > maxSpecsPerCheck {
				return fmt.Errorf("lesson %s exercise %d: %d of %d specs is not a count", lesson, n, res.SpecsPassed, res.Specs)
			}
			res.FirstFailure = truncate(strings.TrimSpace(res.FirstFailure), maxFailureRunes)
			exercises[n] = res
		}
	}
	return nil
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
