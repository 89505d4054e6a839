package learner

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// The README is the one source of hints. Its markup, as lesson 07's README has it:
//
//	### Exercise 2: a title (file.go)
//	...
//	<details><summary>Hint 1: the idea</summary>
//	...
//	</details>
//
// Other <details> blocks in a section ("Why ...?") are asides, not hint levels.
var (
	exerciseHeading = regexp.MustCompile(`^### Exercise (\d+): (.+)$`)
	hintOpening     = regexp.MustCompile(`^<details><summary>Hint (\d+): (.+)</summary>\s*$`)
)

// ExerciseInfo is an exercise as its README introduces it.
type ExerciseInfo struct {
	Number int
	Title  string // "`ParseGVK` (parse.go)"
	Hints  []Hint
}

// Hint is one folded hint level.
type Hint struct {
	Level int
	Title string // "the idea"
	Body  string // the markdown between the summary and </details>, trimmed
}

// addHint adds a level, or joins a block to the level before when it has the same number: a
// level may come in parts (lesson 04's "Hint 2: the API (Run)", "Hint 2: the API (sync)").
func (e *ExerciseInfo) addHint(h Hint) {
	if n := len(e.Hints); n > 0 && e.Hints[n-1].Level == h.Level {
		last := &e.Hints[n-1]
		last.Title += "; " + h.Title
		last.Body += "\n\n" + h.Title + ":\n\n" + h.Body
		return
	}
	e.Hints = append(e.Hints, h)
}

// ReadExercises reads a lesson README's exercise sections and their hints, in order.
func ReadExercises(readme string) ([]ExerciseInfo, error) {
	data, err := os.ReadFile(readme)
	if err != nil {
		return nil, err
	}
	var list []ExerciseInfo
	var current *ExerciseInfo
	var hint *Hint
	var body []string
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case hint != nil && strings.TrimSpace(line) == "</details>":
			hint.Body = strings.TrimSpace(strings.Join(body, "\n"))
			current.addHint(*hint)
			hint, body = nil, nil
		case hint != nil:
			body = append(body, line)
		case exerciseHeading.MatchString(line):
			m := exerciseHeading.FindStringSubmatch(line)
			n, _ := strconv.Atoi(m[1])
			list = append(list, ExerciseInfo{Number: n, Title: m[2]})
			current = &list[len(list)-1]
		case strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "### "):
			current = nil // a section that is not an exercise: its <details> are not hints
		case current != nil && hintOpening.MatchString(line):
			m := hintOpening.FindStringSubmatch(line)
			n, _ := strconv.Atoi(m[1])
			hint = &Hint{Level: n, Title: m[2]}
		}
	}
	return list, nil
}

// CheckHintMarkup is what `make test` asks of every README: each exercise has hint levels
// 1, 2, 3 in order, each closed, none empty. Tools read the hints, so a typo would hide one.
func CheckHintMarkup(readme string) []string {
	list, err := ReadExercises(readme)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	if len(list) == 0 {
		problems = append(problems, "no \"### Exercise N: title\" sections")
	}
	for i, e := range list {
		if e.Number != i+1 {
			problems = append(problems, fmt.Sprintf("exercise sections out of order: \"Exercise %d\" comes where %d was expected", e.Number, i+1))
		}
		var levels []string
		for j, h := range e.Hints {
			levels = append(levels, strconv.Itoa(h.Level))
			if h.Level != j+1 || h.Body == "" {
				problems = append(problems, fmt.Sprintf("exercise %d: hint levels must be 1, 2, 3 in order, each with a body", e.Number))
				break
			}
		}
		if len(e.Hints) < 3 {
			problems = append(problems, fmt.Sprintf("exercise %d has hint levels [%s], want 1, 2 and 3 (<details><summary>Hint N: ...</summary> ... </details>)", e.Number, strings.Join(levels, " ")))
		}
	}
	return problems
}
