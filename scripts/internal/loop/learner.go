package loop

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"workshop.local/scripts/internal/learner"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/variants"
	"workshop.local/scripts/internal/say"
)

// showHint prints the next hint level of an exercise from the lesson's hints file and remembers
// it, so the next call goes one level deeper. Once all are shown, it shows the last again.
func showHint(w io.Writer, root string, lesson lessons.Lesson, exercise int) (bool, error) {
	info, err := exerciseInfo(lesson, exercise)
	if err != nil {
		return false, err
	}
	if named, err := nameMistake(w, root, lesson, info); named || err != nil {
		return named, err
	}
	if len(info.Hints) == 0 {
		return false, say.Errorf("lesson %s has no hints for exercise %d in %s", lesson.Number, exercise, learner.HintsFile)
	}
	var level int
	err = learner.Update(root, func(s *learner.State) {
		e := s.Exercise(lesson.Name, exercise)
		e.HintsShown = min(e.HintsShown+1, len(info.Hints))
		level = e.HintsShown
	})
	if err != nil {
		return false, err
	}
	h := info.Hints[level-1]
	say.Fprintf(w, "Lesson %s, exercise %d: %s\nHint %d of %d: %s\n\n%s\n\n", lesson.Number, exercise, info.Title, h.Level, len(info.Hints), h.Title, h.Body)
	if level < len(info.Hints) {
		say.Fprintf(w, "Again for the next level: make hint LESSON=%s EXERCISE=%d\n", lesson.Number, exercise)
	} else {
		say.Fprintf(w, "That was the last hint. Once the exercise passes, compare with the reference: make solution LESSON=%s EXERCISE=%d\n", lesson.Number, exercise)
	}
	return true, nil
}

// nameMistake comes before the hint levels: when the learner's last check of the exercise failed
// exactly as a known mistake does (learner.Exercise.Mistake) and it has not been named yet, it
// names it, in the words of that wrong solution's header in the learner's language (never its
// code), and remembers that it did: it counts as a hint used.
func nameMistake(w io.Writer, root string, lesson lessons.Lesson, info learner.ExerciseInfo) (bool, error) {
	state, err := learner.Load(root)
	if err != nil {
		return false, err
	}
	mistake := state.Peek(lesson.Name, info.Number).Mistake
	sentence := mistakeSentence(lesson, mistake)
	if sentence == "" || slices.Contains(state.Peek(lesson.Name, info.Number).MistakesNamed, mistake) {
		return false, nil
	}
	err = learner.Update(root, func(s *learner.State) {
		e := s.Exercise(lesson.Name, info.Number)
		e.MistakesNamed = append(e.MistakesNamed, mistake)
	})
	if err != nil {
		return false, err
	}
	say.Fprintf(w, "Lesson %s, exercise %d: %s\nYour last check failed exactly as this known mistake does (it counts as a hint):\n\n  %s\n\n", lesson.Number, info.Number, info.Title, sentence)
	say.Fprintf(w, "Again for the hint levels: make hint LESSON=%s EXERCISE=%d\n", lesson.Number, info.Number)
	return true, nil
}

// mistakeSentence is the known mistake's one-sentence summary from its patch header, in the
// learner's language; "" when no wrong solution has that name.
func mistakeSentence(lesson lessons.Lesson, name string) string {
	if name == "" {
		return ""
	}
	list, _ := variants.Wrong(lesson)
	for _, w := range list {
		if w.Name != name || w.Problem != "" {
			continue
		}
		if say.Chinese() {
			return w.Chinese + "。"
		}
		return strings.ToUpper(w.Summary[:1]) + w.Summary[1:] + "."
	}
	return ""
}

func exerciseInfo(lesson lessons.Lesson, exercise int) (learner.ExerciseInfo, error) {
	list, err := learner.ReadExercisesIn(lesson.Dir, say.Chinese())
	if err != nil {
		return learner.ExerciseInfo{}, err
	}
	for _, e := range list {
		if e.Number == exercise {
			return e, nil
		}
	}
	return learner.ExerciseInfo{}, say.Errorf("lesson %s has no exercise %d: it has %d", lesson.Number, exercise, len(list))
}

// progressRow is one exercise in `make progress`, and in its --json output.
type progressRow struct {
	Lesson     string    `json:"lesson"`
	Exercise   int       `json:"exercise"`
	Title      string    `json:"title"`
	State      string    `json:"state"` // "passed", "failing", "not checked"
	Specs      string    `json:"specs,omitempty"`
	Hints      int       `json:"hintsShown"`
	HintLevels int       `json:"hintLevels"`
	Mistakes   int       `json:"mistakesNamed,omitempty"` // known mistakes make hint named: hints too
	Forced     bool      `json:"solutionForced,omitempty"`
	CheckedAt  time.Time `json:"checkedAt,omitzero"`
}

func progressRows(root string) ([]progressRow, error) {
	all, err := lessons.Discover(root)
	if err != nil {
		return nil, err
	}
	state, err := learner.Load(root)
	if err != nil {
		return nil, err
	}
	var rows []progressRow
	for _, l := range all {
		list, err := learner.ReadExercisesIn(l.Dir, say.Chinese())
		if err != nil {
			continue // a lesson still being written has no README yet
		}
		for _, e := range list {
			st := state.Peek(l.Name, e.Number)
			row := progressRow{Lesson: l.Name, Exercise: e.Number, Title: e.Title, State: "not checked",
				Hints: st.HintsShown, HintLevels: len(e.Hints), Mistakes: len(st.MistakesNamed), Forced: st.SolutionForced, CheckedAt: st.CheckedAt}
			if !st.CheckedAt.IsZero() {
				row.State = "failing"
				if st.Passed {
					row.State = "passed"
				}
				row.Specs = fmt.Sprintf("%d/%d", st.SpecsPassed, st.Specs)
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// showProgress prints every lesson and exercise with its state, hints used and the next step.
func showProgress(w io.Writer, root string, asJSON bool) (bool, error) {
	rows, err := progressRows(root)
	if err != nil {
		return false, err
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return true, enc.Encode(map[string]any{"exercises": rows, "next": nextStep(rows)})
	}
	look := lookOf(os.Stdout)
	printProgress(w, look, rows, "")
	if backups, _ := learner.Backups(root); len(backups) > 0 {
		say.Fprintf(w, "\nYour versions saved by make reset, in .progress/backups/:\n  %s\n", strings.Join(backups, "\n  "))
	}
	say.Fprintf(w, "\nNext: %s\n", nextStep(rows))
	return true, nil
}

// printProgress lists the exercises lesson by lesson. Given a current lesson (make watch's
// list, which must fit a screen), the other lessons take one line each: a mark per exercise.
func printProgress(w io.Writer, look look, rows []progressRow, current string) {
	for i := 0; i < len(rows); {
		lesson := rows[i].Lesson
		j := i
		for j < len(rows) && rows[j].Lesson == lesson {
			j++
		}
		done, total := lessonCount(rows, lesson)
		head := fmt.Sprintf("%s %s %d/%d", look.bold(fmt.Sprintf("%-16s", lesson)), progressBar(done, total, 10), done, total)
		if current != "" && lesson != current {
			marks := ""
			for _, r := range rows[i:j] {
				marks += stateMark(look, r.State)
			}
			fmt.Fprintf(w, "%s  %s\n", head, marks)
			i = j
			continue
		}
		fmt.Fprintln(w, head)
		for _, r := range rows[i:j] {
			extra := ""
			if r.Hints > 0 {
				extra += say.Sprintf("  hints %d/%d", r.Hints, r.HintLevels)
			}
			if r.Mistakes > 0 {
				extra += say.Sprintf("  known mistakes named %d", r.Mistakes)
			}
			if r.Forced {
				extra += say.Sprintf("  solution seen early")
			}
			fmt.Fprintf(w, "  %s %d. %s%s\n", stateMark(look, r.State), r.Exercise, r.Title, look.dim(extra))
		}
		i = j
	}
}

// stateMark is ✓ passed, ✗ failing, · not checked yet.
func stateMark(look look, state string) string {
	switch state {
	case "passed":
		return look.mark(true)
	case "failing":
		return look.mark(false)
	}
	return look.dim("·")
}

func lessonCount(rows []progressRow, lesson string) (done, total int) {
	for _, r := range rows {
		if r.Lesson == lesson {
			total++
			if r.State == "passed" {
				done++
			}
		}
	}
	return done, total
}

// nextStep is the first exercise that has not passed, as a command.
func nextStep(rows []progressRow) string {
	for _, r := range rows {
		if r.State != "passed" {
			n := r.Lesson[:2]
			return say.Sprintf("lesson %s exercise %d (%s): make watch LESSON=%s", n, r.Exercise, r.Title, n)
		}
	}
	return say.Sprintf("every exercise passes. Well done.")
}

// resetExercise puts an exercise's starter files back from git after backing up the learner's;
// exercise 0 resets the whole lesson, after asking.
func resetExercise(w io.Writer, in io.Reader, root string, lesson lessons.Lesson, exercise int, ask bool) (bool, error) {
	if err := restoreSupport(w, root, lesson); err != nil {
		return false, err
	}
	files, err := learner.ExerciseFiles(lesson, exercise)
	if err != nil {
		return false, err
	}
	label := fmt.Sprintf("exercise-%d", exercise)
	what := say.Sprintf("exercise %d of lesson %s (%s)", exercise, lesson.Number, strings.Join(files, ", "))
	if exercise == 0 {
		label, what = "all", say.Sprintf("ALL of lesson %s (%s)", lesson.Number, strings.Join(files, ", "))
	}
	if ask && !confirm(w, in, say.Sprintf("Put back the starter of %s? Your version is backed up first. [y/N] ", what)) {
		say.Fprintf(w, "Nothing reset.\n")
		return false, nil
	}
	r, err := learner.ResetFiles(root, lesson, label, files, time.Now())
	if err != nil {
		return false, err
	}
	if len(r.Files) == 0 {
		say.Fprintf(w, "Nothing to reset: already the starter (%s).\n", strings.Join(r.Already, ", "))
		return true, nil
	}
	say.Fprintf(w, "Reset %s to the starter.\n", strings.Join(r.Files, ", "))
	if r.Backup != "" {
		backup, _ := filepath.Rel(root, r.Backup)
		say.Fprintf(w, "Your version is saved in %s/ (every backup: ls .progress/backups).\n", backup)
	}
	return true, learner.Update(root, func(s *learner.State) {
		for n := range s.Lessons[lesson.Name].Exercises {
			if exercise == 0 || n == exercise {
				e := s.Exercise(lesson.Name, n)
				e.Passed, e.ResetAt = false, time.Now()
			}
		}
	})
}

// restoreSupport puts back the specs and support files the learner changed, first and without
// asking: they are the workspace's, not the learner's work (a backup is kept all the same).
func restoreSupport(w io.Writer, root string, lesson lessons.Lesson) error {
	edited, err := lesson.EditedSupport(root)
	if err != nil || len(edited) == 0 {
		return err
	}
	done, backup, err := learner.RestoreSupport(root, lesson, edited, time.Now())
	for _, line := range done {
		fmt.Fprintln(w, strings.ToUpper(line[:1])+line[1:]+".")
	}
	if backup != "" {
		rel, _ := filepath.Rel(root, backup)
		say.Fprintf(w, "The versions they replaced are saved in %s/. The specs count again.\n", rel)
	}
	return err
}

// confirm asks a yes/no question; without an answer (no terminal, end of input) it is no.
func confirm(w io.Writer, in io.Reader, question string) bool {
	fmt.Fprint(w, question)
	line, _ := bufio.NewReader(in).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}

// showSolution prints the reference solution as a diff against the learner's files, once the
// exercise has passed, or earlier with force, which is recorded.
func showSolution(w io.Writer, root string, lesson lessons.Lesson, exercise int, force bool, color bool) (bool, error) {
	files, err := learner.ExerciseFiles(lesson, exercise)
	if err != nil {
		return false, err
	}
	state, err := learner.Load(root)
	if err != nil {
		return false, err
	}
	passed := !state.Peek(lesson.Name, exercise).PassedAt.IsZero()
	if !passed && !force {
		say.Fprintf(w, "Exercise %d of lesson %s has not passed yet, so its solution stays folded.\n", exercise, lesson.Number)
		say.Fprintf(w, "Check it (make check LESSON=%s EXERCISE=%d), try a hint (make hint LESSON=%s EXERCISE=%d),\n", lesson.Number, exercise, lesson.Number, exercise)
		say.Fprintf(w, "or see it anyway, which your progress records: make solution LESSON=%s EXERCISE=%d FORCE=1\n", lesson.Number, exercise)
		return false, nil
	}
	if !passed {
		if err := learner.Update(root, func(s *learner.State) { s.Exercise(lesson.Name, exercise).SolutionForced = true }); err != nil {
			return false, err
		}
	}
	diff, err := learner.SolutionDiff(root, lesson, files, color)
	if err != nil {
		return false, err
	}
	say.Fprintf(w, "The reference solution of exercise %d as a diff: - your lines, + the solution's.\n", exercise)
	for _, f := range files {
		if others := learner.OtherExercises(lesson, f, exercise); len(others) > 0 {
			say.Fprintf(w, "(%s also holds exercise %v: its differences show as well.)\n", f, others)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, diff)
	return true, nil
}

// Hint is make hint: the next hint level of an exercise (0: the learner's current one).
func Hint(w io.Writer, root string, lesson lessons.Lesson, exercise int) (bool, error) {
	exercise, err := orCurrent(root, lesson, exercise)
	if err != nil {
		return false, err
	}
	return showHint(w, root, lesson, exercise)
}

// Solution is make solution: the reference solution of an exercise (0: the learner's current
// one) as a diff, once it passes, or before with force, which is recorded.
func Solution(w io.Writer, root string, lesson lessons.Lesson, exercise int, force bool) (bool, error) {
	exercise, err := orCurrent(root, lesson, exercise)
	if err != nil {
		return false, err
	}
	return showSolution(w, root, lesson, exercise, force, lookOf(os.Stdout).color)
}

// Reset is make reset: an exercise's starter back from git (0: the whole lesson, after asking).
func Reset(w io.Writer, in io.Reader, root string, lesson lessons.Lesson, exercise int) (bool, error) {
	return resetExercise(w, in, root, lesson, exercise, exercise == 0)
}

// Progress is make progress: every lesson and exercise, as text or JSON.
func Progress(w io.Writer, root string, asJSON bool) (bool, error) {
	return showProgress(w, root, asJSON)
}

func orCurrent(root string, lesson lessons.Lesson, exercise int) (int, error) {
	if exercise != 0 {
		return exercise, nil
	}
	return currentExercise(root, lesson)
}

// currentExercise is the first exercise of the lesson that has not passed in the learner's checks.
func currentExercise(root string, lesson lessons.Lesson) (int, error) {
	list, err := learner.ReadExercisesIn(lesson.Dir, say.Chinese())
	if err != nil {
		return 0, err
	}
	state, err := learner.Load(root)
	if err != nil {
		return 0, err
	}
	for _, e := range list {
		if !state.Peek(lesson.Name, e.Number).Passed {
			return e.Number, nil
		}
	}
	if len(list) == 0 {
		return 0, say.Errorf("lesson %s's README lists no exercises", lesson.Number)
	}
	return list[len(list)-1].Number, nil
}
