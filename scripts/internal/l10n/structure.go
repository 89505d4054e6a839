package l10n

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// language is how a lesson's README and hints file mark exercises and hint levels in one language.
// The tools (internal/learner) read the English marks; a translation uses the Chinese ones, with
// a full-width colon, and the same numbers.
type language struct {
	exercise      *regexp.Regexp // a README's exercise heading: its number and title
	hintsExercise *regexp.Regexp // a hints file's section of one exercise
	hint          *regexp.Regexp // a hint level's heading, or a folded one
}

var (
	english = language{
		exercise:      regexp.MustCompile(`^### Exercise (\d+): (.+)$`),
		hintsExercise: regexp.MustCompile(`^## Exercise (\d+)\b`),
		hint:          regexp.MustCompile(`^(?:### |<details><summary>)Hint (\d+):`),
	}
	chinese = language{
		exercise:      regexp.MustCompile(`^### 练习 (\d+)：(.+)$`),
		hintsExercise: regexp.MustCompile(`^## 练习 (\d+)\b`),
		hint:          regexp.MustCompile(`^(?:### |<details><summary>)提示 (\d+)：`),
	}
)

// exercise is an exercise's heading: its number, and what of its title no translation changes.
type exercise struct {
	line   int
	number int
	spans  []string // the title's code spans, sorted (word order may change in Chinese)
	files  []string // the file names in the title outside code spans, sorted
}

// fileName is a file's name as a title gives it: parse.go, api/v1/guestbook_types.go.
var fileName = regexp.MustCompile(`[A-Za-z0-9_./-]+\.(?:go|ya?ml|json|md|sh|mod|txt|tsv|patch)\b`)

// exercises are d's exercise headings, in order.
func (d doc) exercises(l language) []exercise {
	var list []exercise
	for i, line := range d.lines {
		m := l.exercise.FindStringSubmatch(line)
		if m == nil || d.fenced[i] {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		plain, spans := maskCode(m[2])
		e := exercise{line: i + 1, number: n, files: fileName.FindAllString(plain, -1)}
		for _, s := range spans {
			e.spans = append(e.spans, s.text)
		}
		slices.Sort(e.spans)
		slices.Sort(e.files)
		list = append(list, e)
	}
	return list
}

// hintSection is one exercise's section of a hints file: where it starts and its hint levels.
type hintSection struct {
	line, number, levels int
}

// hintSections are d's hint sections, in order. A heading of level 1 or 2 that is not an
// exercise's ends a section, as it does for make hint.
func (d doc) hintSections(l language) []hintSection {
	var list []hintSection
	current := -1 // index in list of the open section
	for i, line := range d.lines {
		switch {
		case d.fenced[i]:
		case l.hintsExercise.MatchString(line):
			n, _ := strconv.Atoi(l.hintsExercise.FindStringSubmatch(line)[1])
			list = append(list, hintSection{line: i + 1, number: n})
			current = len(list) - 1
		case strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## "):
			current = -1
		case current >= 0 && l.hint.MatchString(line):
			list[current].levels++
		}
	}
	return list
}
