package lessons

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A lesson's exercises are the headings of its README, "### Exercise N: title": the one place
// that says which exercises a lesson has. Discover reads them once into Lesson.Exercises and
// the tools ask that list. An exercise shows in two more places, both checked against it by
// make test: a TODO(exercise N) marker in the learner files (CheckExercises, a static check)
// and the exercise-N label of its specs (the starter's run).

// ReadmeFile is the lesson's README, whose headings name its exercises.
const ReadmeFile = "README.md"

// exerciseHeading is an exercise's heading in a README, in English or in the Chinese of a
// translation ("### 练习 2：title", docs/authoring.md, "Translations").
var exerciseHeading = regexp.MustCompile(`^### (?:Exercise (\d+): |练习 (\d+)：)(.+)$`)

// ExerciseHeading is one exercise as a README introduces it.
type ExerciseHeading struct {
	Number int
	Title  string // "`ParseGVK` (parse.go)"
}

// ReadExerciseHeadings reads a README's exercise headings in order, outside code blocks.
func ReadExerciseHeadings(readme string) ([]ExerciseHeading, error) {
	data, err := os.ReadFile(readme)
	if err != nil {
		return nil, err
	}
	var list []ExerciseHeading
	for _, line := range MarkdownLines(string(data)) {
		if m := exerciseHeading.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1] + m[2])
			list = append(list, ExerciseHeading{Number: n, Title: m[3]})
		}
	}
	return list, nil
}

// MarkdownLines splits text into lines, indenting the headings inside fenced code blocks so
// that a "### ..." line in a code sample is never taken for a heading.
func MarkdownLines(text string) []string {
	lines := strings.Split(text, "\n")
	fenced := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced && strings.HasPrefix(line, "#") {
			lines[i] = " " + line
		}
	}
	return lines
}

// readExercises is the numbers of the lesson's README headings, in order; none without a README
// (CheckExercises reports it).
func (l Lesson) readExercises() []int {
	headings, _ := ReadExerciseHeadings(filepath.Join(l.Dir, ReadmeFile))
	var numbers []int
	for _, h := range headings {
		numbers = append(numbers, h.Number)
	}
	return numbers
}

// Marker is where an exercise's edit point is: its first TODO(exercise N) in a learner file.
type Marker struct {
	File string // relative to the lesson, forward slashes
	Line int
}

var todoMarker = regexp.MustCompile(`TODO\(exercise (\d+)\)`)

// Markers reads the learner files once and returns each exercise's first marker, by number.
func (l Lesson) Markers() map[int]Marker {
	markers := map[int]Marker{}
	files, _ := l.EditableFiles()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(l.Dir, f))
		if err != nil {
			continue
		}
		for i, text := range strings.Split(string(data), "\n") {
			for _, m := range todoMarker.FindAllStringSubmatch(text, -1) {
				n, _ := strconv.Atoi(m[1])
				if _, seen := markers[n]; !seen {
					markers[n] = Marker{File: f, Line: i + 1}
				}
			}
		}
	}
	return markers
}

// TODO is where an exercise's edit point is ("" when it has no marker).
func (l Lesson) TODO(exercise int) (file string, line int) {
	m := l.Markers()[exercise]
	return m.File, m.Line
}

// CheckExercises compares the README's exercises with the TODO markers of the learner files:
// each exercise the README introduces has a marker, and no marker names another. The specs'
// labels are compared with the README when the starter runs (they need a build).
func (l Lesson) CheckExercises() []string {
	if len(l.Exercises) == 0 {
		return []string{fmt.Sprintf("lessons/%s/%s introduces no exercise (### Exercise N: title)", l.Name, ReadmeFile)}
	}
	var problems []string
	markers := l.Markers()
	for _, n := range l.Exercises {
		if _, ok := markers[n]; !ok {
			problems = append(problems, fmt.Sprintf("lessons/%s: exercise %d of the README has no TODO(exercise %d) marker in the learner files", l.Name, n, n))
		}
	}
	for _, n := range slices.Sorted(maps.Keys(markers)) {
		if !slices.Contains(l.Exercises, n) {
			m := markers[n]
			problems = append(problems, fmt.Sprintf("lessons/%s/%s:%d: TODO(exercise %d) names an exercise the README does not introduce", l.Name, m.File, m.Line, n))
		}
	}
	return problems
}
