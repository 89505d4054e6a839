package learner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const readme = `# Lesson 99

## The ideas

<details><summary>Hint 1: not an exercise's</summary>
x
</details>

## Exercises

### Exercise 1: ` + "`Parse`" + ` (parse.go)

Do it.

<details><summary>Hint 1: the idea</summary>

Split it.
</details>

<details><summary>Hint 2: the API</summary>

strings.Cut
</details>

<details><summary>Hint 3: a sketch</summary>

` + "```go\nstrings.Cut(s, \"/\")\n```" + `
</details>

<details><summary>Why not a regexp?</summary>
an aside
</details>

### Exercise 2: more (more.go)

<details><summary>Hint 1: the idea</summary>
only one level
</details>

## Check it
`

// TestHintsAreReadFromTheREADME proves the levels come from an exercise's section only, in order,
// with their bodies, and that asides and other sections' <details> are not taken for hints.
func TestHintsAreReadFromTheREADME(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	list, err := ReadExercises(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Title != "`Parse` (parse.go)" || len(list[0].Hints) != 3 || len(list[1].Hints) != 1 {
		t.Fatalf("got %+v", list)
	}
	if h := list[0].Hints[2]; h.Level != 3 || h.Title != "a sketch" || !strings.Contains(h.Body, "strings.Cut(s") {
		t.Errorf("hint 3 = %+v", h)
	}
	problems := CheckHintMarkup(path)
	if len(problems) != 1 || !strings.Contains(problems[0], "exercise 2 has hint levels [1]") {
		t.Errorf("CheckHintMarkup = %q, want one problem about exercise 2", problems)
	}
}

// TestEveryLessonREADMEHasThreeHintLevels holds the workshop's READMEs to the markup the tools read.
func TestEveryLessonREADMEHasThreeHintLevels(t *testing.T) {
	readmes, _ := filepath.Glob("../../../lessons/*/README.md")
	if len(readmes) == 0 {
		t.Fatal("no lesson READMEs found from scripts/internal/learner")
	}
	for _, path := range readmes {
		for _, p := range CheckHintMarkup(path) {
			t.Errorf("%s: %s", path, p)
		}
	}
}
