package learner

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"workshop.local/scripts/internal/lessons"
)

// A lesson's exercises are introduced by its README and hinted at by its hints file. The hints
// live apart from the README because a learner reads the README as plain text (an editor, cat,
// a browser): folded <details> hide nothing there, so a hint in the README is a hint read
// whether asked for or not. A learner meets a hint only by asking: make hint, or h in make watch.
//
// README.md names the exercises:
//
//	### Exercise 2: a title (file.go)
//
// hints.md holds their levels, in order:
//
//	## Exercise 2
//
//	### Hint 1: the idea
//	...
//	### Hint 2: the API names
//	...
const (
	ReadmeFile = lessons.ReadmeFile
	HintsFile  = "hints.md"
)

// The Simplified Chinese edition (docs/authoring.md, "Translations") sits beside them as
// README.zh-CN.md and hints.zh-CN.md, with the same numbers under its own words:
// "### 练习 2：title", "## 练习 2", "### 提示 1：the idea".
const (
	ReadmeFileZH = "README.zh-CN.md"
	HintsFileZH  = "hints.zh-CN.md"
)

var (
	hintsExercise = regexp.MustCompile(`^## (?:Exercise|练习) (\d+)(?:\s|$)`)
	hintHeading   = regexp.MustCompile(`^### (?:Hint (\d+): |提示 (\d+)：)(.+)$`)
	// A README must not carry hint levels any more: one that does shows them to every reader.
	foldedHint = regexp.MustCompile(`^<details><summary>Hint \d+:`)
)

// ExerciseInfo is an exercise as its README introduces it, with its hints.
type ExerciseInfo struct {
	Number int
	Title  string // "`ParseGVK` (parse.go)"
	Hints  []Hint
}

// Hint is one hint level.
type Hint struct {
	Level int
	Title string // "the idea"
	Body  string // the markdown under the level's heading, trimmed
}

// ReadExercises reads a lesson's exercises in the README's order, each with its hint levels
// from the hints file (none when the lesson has no hints file).
func ReadExercises(lessonDir string) ([]ExerciseInfo, error) {
	return ReadExercisesIn(lessonDir, false)
}

// ReadExercisesIn is ReadExercises in the learner's language: with chinese, from the lesson's
// README.zh-CN.md and hints.zh-CN.md, each where it exists (the English file otherwise).
func ReadExercisesIn(lessonDir string, chinese bool) ([]ExerciseInfo, error) {
	readme, hintsFile := ReadmeFile, HintsFile
	if chinese {
		readme, hintsFile = translated(lessonDir, ReadmeFile, ReadmeFileZH), translated(lessonDir, HintsFile, HintsFileZH)
	}
	list, err := readExerciseTitles(filepath.Join(lessonDir, readme))
	if err != nil {
		return nil, err
	}
	hints, err := readHints(filepath.Join(lessonDir, hintsFile))
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	for i := range list {
		list[i].Hints = hints[list[i].Number]
	}
	return list, nil
}

// translated is the translation's name where the lesson has it, else the English file's.
func translated(lessonDir, english, translation string) string {
	if _, err := os.Stat(filepath.Join(lessonDir, translation)); err == nil {
		return translation
	}
	return english
}

// number is the first non-empty group of a heading's match: the English or the Chinese form.
func number(m []string) int {
	n, _ := strconv.Atoi(m[1] + m[2])
	return n
}

// readExerciseTitles reads the README's "### Exercise N: title" headings, in order, as the
// tools read a lesson's exercises (lessons.ReadExerciseHeadings).
func readExerciseTitles(readme string) ([]ExerciseInfo, error) {
	headings, err := lessons.ReadExerciseHeadings(readme)
	if err != nil {
		return nil, err
	}
	var list []ExerciseInfo
	for _, h := range headings {
		list = append(list, ExerciseInfo{Number: h.Number, Title: h.Title})
	}
	return list, nil
}

// readHints reads a hints file into the levels of each exercise, keyed by exercise number.
func readHints(path string) (map[int][]Hint, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	hints := map[int][]Hint{}
	exercise := 0
	var current *Hint
	var body []string
	flush := func() {
		if current != nil {
			current.Body = strings.TrimSpace(strings.Join(body, "\n"))
			hints[exercise] = append(hints[exercise], *current)
		}
		current, body = nil, nil
	}
	for _, line := range lessons.MarkdownLines(string(data)) {
		switch {
		case hintsExercise.MatchString(line):
			flush()
			exercise, _ = strconv.Atoi(hintsExercise.FindStringSubmatch(line)[1])
		case exercise > 0 && hintHeading.MatchString(line):
			flush()
			m := hintHeading.FindStringSubmatch(line)
			current = &Hint{Level: number(m), Title: m[3]}
		case strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## "):
			flush()
			exercise = 0 // a heading that is not an exercise's ends its hints
		case current != nil:
			body = append(body, line)
		}
	}
	flush()
	return hints, nil
}

// CheckHintMarkup is what `make test` asks of every lesson: the README names its exercises
// 1, 2, 3... in order and folds no hint into its body; the hints file gives each exercise the
// levels 1, 2, 3 in order, none empty, and no exercise the README lacks. The tools read both,
// so a typo would hide a hint.
func CheckHintMarkup(lessonDir string) []string {
	list, err := ReadExercises(lessonDir)
	if err != nil {
		return []string{err.Error()}
	}
	problems := checkReadmeHasNoHints(filepath.Join(lessonDir, ReadmeFile))
	if len(list) == 0 {
		problems = append(problems, "README.md has no \"### Exercise N: title\" sections")
	}
	for i, e := range list {
		if e.Number != i+1 {
			problems = append(problems, fmt.Sprintf("README.md: exercise sections out of order: \"Exercise %d\" comes where %d was expected", e.Number, i+1))
		}
		problems = append(problems, checkLevels(e)...)
	}
	hints, err := readHints(filepath.Join(lessonDir, HintsFile))
	if err != nil {
		return append(problems, fmt.Sprintf("no %s beside the README: %v", HintsFile, err))
	}
	for n := range hints {
		if n < 1 || n > len(list) {
			problems = append(problems, fmt.Sprintf("%s has hints for exercise %d, which README.md does not name", HintsFile, n))
		}
	}
	return problems
}

func checkReadmeHasNoHints(readme string) []string {
	data, err := os.ReadFile(readme)
	if err != nil {
		return []string{err.Error()}
	}
	for i, line := range strings.Split(string(data), "\n") {
		if foldedHint.MatchString(line) {
			return []string{fmt.Sprintf("README.md:%d folds a hint level into the README, where every reader sees it: move it to %s", i+1, HintsFile)}
		}
	}
	return nil
}

func checkLevels(e ExerciseInfo) []string {
	var levels []string
	for j, h := range e.Hints {
		levels = append(levels, strconv.Itoa(h.Level))
		if h.Level != j+1 || h.Body == "" {
			return []string{fmt.Sprintf("%s, exercise %d: hint levels must be 1, 2, 3 in order, each with a body", HintsFile, e.Number)}
		}
	}
	if len(e.Hints) < 3 {
		return []string{fmt.Sprintf("%s, exercise %d has hint levels [%s], want 1, 2 and 3 (\"### Hint N: title\" under \"## Exercise %d\")", HintsFile, e.Number, strings.Join(levels, " "), e.Number)}
	}
	return nil
}
