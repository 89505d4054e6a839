package proof

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/lessons"
)

// mistakesDoc is the instructors' list of common mistakes. It is written from the headers of
// the wrong solutions (`make mistakes`), so it names exactly the mistakes `make test` proves the
// specs catch, and cannot drift from them: a static check compares the two.
const mistakesDoc = "docs/mistakes.md"

// renderMistakes writes the list: per lesson and exercise, each mistake and its folder.
func renderMistakes(root string) ([]byte, error) {
	all, err := lessons.Discover(root)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("# Common mistakes, per exercise\n\n")
	b.WriteString("Written by `make mistakes` from the wrong solutions in `solutions/NN-topic/wrong/`; do not edit\n")
	b.WriteString("by hand. Each line is a mistake learners make, kept as a wrong solution that `make test` proves\n")
	b.WriteString("the exercise's specs catch. The patch says why it is wrong: walk the room through one\n")
	b.WriteString("when many learners are stuck on the same exercise.\n")
	for _, l := range all {
		list, err := l.WrongSolutions()
		if err != nil {
			return nil, err
		}
		writeLessonMistakes(&b, l, list)
	}
	return b.Bytes(), nil
}

func writeLessonMistakes(b *bytes.Buffer, l lessons.Lesson, list []lessons.Patch) {
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## Lesson %s (`%s`)\n", l.Number, l.Name)
	for _, n := range l.ExercisesWithTODO() {
		fmt.Fprintf(b, "\nExercise %d:\n\n", n)
		writeBrokenOperators(b, l, n)
		for _, w := range list {
			if w.Problem == "" && w.Exercise == n {
				fmt.Fprintf(b, "- %s. (`wrong/%s.patch`, in %s)\n", sentence(w.Summary), w.Name, w.File)
			}
		}
	}
}

// writeBrokenOperators lists what the learner's own specs must catch in a "write your own
// specs" exercise: the broken operators of solutions/NN-topic/broken/, by the behaviour each
// gets wrong.
func writeBrokenOperators(b *bytes.Buffer, l lessons.Lesson, exercise int) {
	broken, _ := l.BrokenOperators()
	if !l.IsOwnSpecs(exercise) || len(broken) == 0 {
		return
	}
	fmt.Fprintf(b, "The learner's specs must catch each broken operator (its patch says how it is broken):\n\n")
	for _, o := range broken {
		if o.Problem == "" {
			fmt.Fprintf(b, "- %s. (`broken/%s.patch`, in %s)\n", sentence(o.Summary), o.Name, o.File)
		}
	}
}

// WriteMistakes is `make mistakes`.
func WriteMistakes(root string) (bool, error) {
	data, err := renderMistakes(root)
	if err != nil {
		return false, err
	}
	path := filepath.Join(root, mistakesDoc)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return false, err
	}
	fmt.Printf("wrote %s (%d lines)\n", mistakesDoc, bytes.Count(data, []byte("\n")))
	return true, nil
}

// mistakesCurrent is the static check that the instructors' list matches the wrong solutions.
func (t *tester) mistakesCurrent(context.Context) (string, error) {
	want, err := renderMistakes(t.root)
	if err != nil {
		return "", err
	}
	have, err := os.ReadFile(filepath.Join(t.root, mistakesDoc))
	if err != nil || !bytes.Equal(have, want) {
		return "", errors.New(mistakesDoc + " does not list the current wrong solutions: run `make mistakes` and commit it")
	}
	return fmt.Sprintf("%d mistakes listed", strings.Count(string(want), "\n- ")), nil
}

// sentence capitalizes the header's first letter: headers read "it does X" after their colon.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// WriteSums is `make sums`: lessons/specs.sha256 from the specs and support files as they are.
func WriteSums(root string) (bool, error) {
	all, err := lessons.Discover(root)
	if err != nil {
		return false, err
	}
	data, err := lessons.RenderSums(root, all)
	if err != nil {
		return false, err
	}
	if err := os.WriteFile(filepath.Join(root, lessons.SumsFile), data, 0o644); err != nil {
		return false, err
	}
	fmt.Printf("wrote %s (%d files)\n", lessons.SumsFile, bytes.Count(data, []byte("\n"))-2)
	return true, nil
}

// sumsCurrent is the static check that lessons/specs.sha256 matches the specs as committed:
// a maintainer who changes a spec runs make sums, or every learner's check stops counting.
func (t *tester) sumsCurrent(context.Context) (string, error) {
	all, err := lessons.Discover(t.root) // every lesson's, even when make test proves one
	if err != nil {
		return "", err
	}
	want, err := lessons.RenderSums(t.root, all)
	if err != nil {
		return "", err
	}
	have, err := os.ReadFile(filepath.Join(t.root, lessons.SumsFile))
	if err != nil || !bytes.Equal(have, want) {
		return "", errors.New(lessons.SumsFile + " does not match the specs and support files: run `make sums` and commit it")
	}
	return fmt.Sprintf("%d files", bytes.Count(want, []byte("\n"))-2), nil
}
