package learner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const readme = `# Lesson 99

## Exercises

### Exercise 1: ` + "`Parse`" + ` (parse.go)

Do it.

<details><summary>Why not a regexp?</summary>
an aside, not a hint
</details>

### Exercise 2: more (more.go)

## Check it
`

const hints = `# Lesson 99: hints

### Hint 1: before any exercise, not a hint

## Exercise 1

### Hint 1: the idea

Split it.

### Hint 2: the API

strings.Cut

### Hint 3: a sketch

` + "```go\n### not a heading\nstrings.Cut(s, \"/\")\n```" + `

## Exercise 2

### Hint 1: the idea
only one level

## Notes

### Hint 2: under another heading, not exercise 2's
`

// TestHintsAreReadFromTheHintsFile proves the titles come from the README and the levels from
// the hints file, each under its exercise's heading only, in order, with their bodies (code
// blocks included), and that a README which folds a hint level into its body is reported.
func TestHintsAreReadFromTheHintsFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(ReadmeFile, readme)
	write(HintsFile, hints)
	list, err := ReadExercises(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Title != "`Parse` (parse.go)" || len(list[0].Hints) != 3 || len(list[1].Hints) != 1 {
		t.Fatalf("got %+v", list)
	}
	if h := list[0].Hints[2]; h.Level != 3 || h.Title != "a sketch" || !strings.Contains(h.Body, "### not a heading\nstrings.Cut(s") {
		t.Errorf("hint 3 = %+v", h)
	}
	problems := CheckHintMarkup(dir)
	if len(problems) != 1 || !strings.Contains(problems[0], "exercise 2 has hint levels [1]") {
		t.Errorf("CheckHintMarkup = %q, want one problem about exercise 2", problems)
	}

	write(ReadmeFile, strings.Replace(readme, "Do it.", "Do it.\n\n<details><summary>Hint 1: the idea</summary>\nSplit it.\n</details>", 1))
	problems = CheckHintMarkup(dir)
	if len(problems) == 0 || !strings.Contains(problems[0], "README.md:9 folds a hint level") {
		t.Errorf("CheckHintMarkup = %q, want the folded hint in README.md reported first", problems)
	}
}

// TestEveryLessonHasThreeHintLevels holds the workshop's lessons to the markup the tools read.
func TestEveryLessonHasThreeHintLevels(t *testing.T) {
	readmes, _ := filepath.Glob("../../../lessons/*/README.md")
	if len(readmes) == 0 {
		t.Fatal("no lesson READMEs found from scripts/internal/learner")
	}
	for _, path := range readmes {
		for _, p := range CheckHintMarkup(filepath.Dir(path)) {
			t.Errorf("%s: %s", path, p)
		}
	}
}
