// Package board is the instructor's board (make classroom) and the learner's side of it
// (make join, then every make check / make watch reports): per-exercise results only, never code.
package board

import (
	"fmt"
	"regexp"
	"slices"
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
	// SpecsDigest is the digest of the specs the laptop checks with (lessons.SpecsDigest):
	// the board marks a learner whose specs are not the instructor's.
	SpecsDigest string `json:"specsDigest,omitempty"`
}

// Result is one exercise's last check.
type Result struct {
	Passed       bool      `json:"passed"`
	SpecsPassed  int       `json:"specsPassed"`
	Specs        int       `json:"specs"`
	FirstFailure string    `json:"firstFailure,omitempty"`
	CheckedAt    time.Time `json:"checkedAt"`
	HintsShown   int       `json:"hintsShown,omitempty"`
	// Mistake names the known mistake (a wrong solution of the lesson, never its code) whose
	// signature the failing check matched, as make check found it.
	Mistake string `json:"mistake,omitempty"`
}

// Limits on what the board accepts, so one broken or hostile laptop cannot fill its memory.
const (
	MaxReportBytes   = 64 << 10
	maxNameRunes     = 40
	maxLessons       = 40
	maxExercises     = 20
	maxFailureRunes  = 300
	maxSpecsPerCheck = 500
	maxMistakeBytes  = 80
)

var (
	lessonName = regexp.MustCompile(`^\d\d-[a-z0-9-]{1,40}$`)
	// mistakeName is a wrong solution's name, kebab-case (docs/authoring.md).
	mistakeName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+){0,15}$`)
	sha256Hex   = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// Catalog is the workshop's lessons and their exercises, as the instructor's workspace has
// them: the board keeps a learner's results for these and nothing else, which bounds what one
// learner's record can grow to. A nil Catalog takes any lesson folder name and exercises 1 to 20.
type Catalog map[string][]int

// has says whether the lesson (and, when n > 0, its exercise n) is one the board keeps.
func (c Catalog) has(lesson string, n int) bool {
	if c == nil {
		return lessonName.MatchString(lesson) && n <= maxExercises
	}
	exercises, ok := c[lesson]
	return ok && (n == 0 || slices.Contains(exercises, n))
}

// validName trims a learner's name and refuses an empty, long or unprintable one.
func validName(name string) (string, error) {
	name = strings.TrimSpace(name)
	n := utf8.RuneCountInString(name)
	if n == 0 || n > maxNameRunes || strings.IndexFunc(name, func(c rune) bool { return !unicode.IsPrint(c) }) >= 0 {
		return "", fmt.Errorf("learner name must be 1 to %d printable characters", maxNameRunes)
	}
	return name, nil
}

// Validate refuses a malformed report with a message the learner's tool can show, and trims
// failure messages to a length the page can show. Lessons and exercises outside the catalog
// are refused: they would be kept for nobody.
func (r *Report) Validate(c Catalog) error {
	name, err := validName(r.Learner)
	if err != nil {
		return err
	}
	r.Learner = name
	if r.SpecsDigest != "" && !sha256Hex.MatchString(r.SpecsDigest) {
		return fmt.Errorf("specsDigest %q is not a SHA-256 in hex", truncate(r.SpecsDigest, 70))
	}
	if len(r.Lessons) > maxLessons {
		return fmt.Errorf("at most %d lessons per report", maxLessons)
	}
	for lesson, exercises := range r.Lessons {
		if !lessonName.MatchString(lesson) {
			return fmt.Errorf("%q is not a lesson folder name like 01-gvk-gvr", lesson)
		}
		if !c.has(lesson, 0) {
			return fmt.Errorf("%q is not a lesson of this workshop (is your workspace the instructor's version?)", lesson)
		}
		for n, res := range exercises {
			if n < 1 || !c.has(lesson, n) {
				return fmt.Errorf("lesson %s has no exercise %d", lesson, n)
			}
			if res.Specs < 0 || res.SpecsPassed < 0 || res.SpecsPassed > res.Specs || res.Specs > maxSpecsPerCheck {
				return fmt.Errorf("lesson %s exercise %d: %d of %d specs is not a count", lesson, n, res.SpecsPassed, res.Specs)
			}
			if res.Mistake != "" && (len(res.Mistake) > maxMistakeBytes || !mistakeName.MatchString(res.Mistake)) {
				return fmt.Errorf("lesson %s exercise %d: %q is not a wrong solution's name", lesson, n, truncate(res.Mistake, 70))
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
