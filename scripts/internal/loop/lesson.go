// Package loop is the learner's loop: make check (build a lesson's specs, run them against the
// workshop cluster, show the current exercise's failures in full and the rest a line each), make
// watch (the same on every save, with keys), hint, progress, reset and solution. What it remembers
// (exercises passed, hints shown) is package learner's state in .progress/.
package loop

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"

	"workshop.local/scripts/internal/learner"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/lessons/variants"
	"workshop.local/scripts/internal/ownspecs"
	"workshop.local/scripts/internal/say"
)

// Check runs one lesson's specs against the learner's files and shows, from Ginkgo's
// report, the full output of the current exercise's failures only, one line per spec for the
// rest (VERBOSE=1: Ginkgo's whole output), then a summary per exercise and the next step.
// A lesson that does not compile is reported as that, with the compiler's lines. It returns
// true when all checked pass.
func Check(ctx context.Context, root, scratch string, lesson lessons.Lesson, exercise int, verbose bool) (bool, error) {
	look := lookOf(os.Stdout)
	c := newChecker(root, scratch, lesson, "check", os.Stdout, look)
	say.Printf("Checking lesson %s against the workshop cluster...\n\n", lesson.Name)
	if err := c.build(ctx); err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		c.compileFailure(os.Stdout, err)
		return false, nil
	}
	var stream io.Writer // Ginkgo's whole output, as it comes
	if verbose {
		stream = os.Stdout
	}
	st := newStatus(os.Stdout, look)
	if look.tty && stream == nil {
		st.show(say.Sprintf("Running the specs"))
	}
	c.proving = func(broken int) {
		msg := say.Sprintf("Proving your specs against the reference operator and %d broken ones (a build and a run each: a minute or more)", broken)
		if look.tty && stream == nil {
			st.show(msg)
		} else {
			say.Printf("%s...\n", msg)
		}
	}
	res, err := c.run(ctx, exercise, stream)
	st.done()
	if err != nil {
		return false, err
	}
	if res.SuiteError != "" && len(res.Specs) == 0 {
		printFull(os.Stdout, look, res.SuiteFailures)
		say.Printf("\nLesson %s did not run: %s\n", lesson.Number, res.SuiteError)
		return false, nil
	}
	if stream == nil {
		printCompact(os.Stdout, look, res)
		rel, _ := filepath.Rel(root, c.logPath())
		fmt.Println("\n" + look.dim(say.Sprintf("Ginkgo's whole output: %s (or VERBOSE=1)", rel)))
	}
	fmt.Println()
	passed := summarize(root, lesson, res, exercise)
	if warning := c.notCounted(); warning != "" {
		fmt.Println("\n" + look.red(warning))
		return false, nil
	}
	return passed, nil
}

// printCompact shows every spec as one line, grouped by exercise, and the current exercise's
// failing specs (the first exercise that does not pass) in full, as Ginkgo prints them.
func printCompact(w io.Writer, look look, res specrun.Result) {
	current := -1
	for _, e := range res.Exercises() {
		if !e.Done() {
			current = e.Number
			break
		}
	}
	var full []types.SpecReport
	for _, s := range res.Specs {
		if s.Exercise == current && !s.Passed && !s.FromProof {
			full = append(full, s.Report)
		}
	}
	printFull(w, look, full)
	for _, e := range res.Exercises() {
		fmt.Fprintf(w, "\n%s\n", look.bold(e.Title))
		for _, s := range res.Specs {
			if s.Exercise == e.Number {
				fmt.Fprintf(w, "  %s %s\n", look.mark(s.Passed), specLine(s))
			}
		}
	}
}

// specLine is a spec's text below its exercise's container.
func specLine(s specrun.Spec) string {
	texts := s.Report.ContainerHierarchyTexts
	if len(texts) > 0 {
		texts = texts[1:]
	}
	return strings.Join(append(slices.Clone(texts), s.Report.LeafNodeText), " ")
}

// printFull prints specs as Ginkgo's default reporter does for a failure. A stub panics in
// every spec of its exercise with the same stack: the first panic is shown whole, the others
// only counted (each still has its line below; VERBOSE=1 shows them all).
func printFull(w io.Writer, look look, specs []types.SpecReport) {
	if len(specs) == 0 {
		return
	}
	r := reporters.NewDefaultReporter(types.ReporterConfig{NoColor: !look.color}, w)
	panics := 0
	for _, sr := range specs {
		if sr.Failure.ForwardedPanic != "" {
			if panics++; panics > 1 {
				continue
			}
		}
		r.DidRun(sr)
	}
	if panics > 1 {
		say.Fprintf(w, "%d more specs panicked; their stack traces are left out (VERBOSE=1 shows them).\n", panics-1)
	}
}

// summarize prints one line per exercise and what to do next.
func summarize(root string, lesson lessons.Lesson, res specrun.Result, only int) bool {
	exercises := res.Exercises()
	if len(exercises) == 0 {
		// A check that ran no spec proves nothing: never a pass (nor a progress mark, nor a
		// result for the board, which record only sends for exercises that ran).
		say.Printf("No spec of lesson %s ran, so nothing passed: make check LESSON=%s VERBOSE=1 shows why.\n", lesson.Number, lesson.Number)
		return false
	}
	done := 0
	for _, e := range exercises {
		mark := "todo"
		if e.Done() {
			mark, done = "done", done+1
		}
		say.Printf("  [%s] %-48s %d of %d specs pass\n", mark, e.Title, e.Passed, e.Total)
	}
	say.Printf("\nLesson %s: %d of %d exercises pass", lesson.Number, done, len(exercises))
	if only > 0 {
		say.Printf(" (only exercise %d was checked)", only)
	}
	say.Printf(".\n")
	if own := lesson.OwnSpecs(); own != nil && !ownspecs.Judges(lesson, res, only) && only == 0 {
		// The own-specs exercise ran against the learner's own operator only: say what will count.
		broken, _ := variants.Broken(lesson)
		say.Printf("Exercise %d is judged against the reference operator and %d broken ones once the others pass, or alone: make check LESSON=%s EXERCISE=%d.\n", own.Exercise, len(broken), lesson.Number, own.Exercise)
	}
	for _, e := range exercises {
		if !e.Done() {
			printNext(root, lesson, e)
			return false
		}
	}
	printFinished(root, lesson, only)
	return true
}

func printNext(root string, lesson lessons.Lesson, e specrun.Exercise) {
	rel := func(p string) string { r, _ := filepath.Rel(root, p); return r }
	say.Printf("Next: %s.\n", e.Title)
	if file, line := lesson.TODO(e.Number); file != "" {
		say.Printf("  edit  %s:%d  (TODO(exercise %d))\n", rel(filepath.Join(lesson.Dir, file)), line, e.Number)
	}
	say.Printf("  hints make hint LESSON=%s EXERCISE=%d  (one level at a time)\n", lesson.Number, e.Number)
	say.Printf("  first failing spec: %s\n", e.FirstFailure.Text)
	if e.FirstFailure.Failure != "" {
		fmt.Printf("    %s\n", e.FirstFailure.Failure)
	}
	if line := mistakeLine(root, lesson, e.Number, false); line != "" {
		fmt.Print(line)
	}
	say.Printf("  check it alone: make check LESSON=%s EXERCISE=%d, or at every save: make watch LESSON=%s\n", lesson.Number, e.Number, lesson.Number)
	if broken, _ := variants.Broken(lesson); lesson.IsOwnSpecs(e.Number) {
		say.Printf("  the proof operator by operator, as it runs: make specs LESSON=%s (the reference and %d broken ones)\n", lesson.Number, len(broken))
	}
}

// mistakeLine says, under a failing exercise, that the failure matches a known mistake
// (learner.Exercise.Mistake, as the check just recorded it), and how to have it named (make
// hint; the h key in watch); once it was named, the line names it again. "" when it matches none.
func mistakeLine(root string, lesson lessons.Lesson, exercise int, inWatch bool) string {
	state, err := learner.Load(root)
	if err != nil {
		return ""
	}
	st := state.Peek(lesson.Name, exercise)
	sentence := mistakeSentence(lesson, st.Mistake)
	switch {
	case sentence == "":
		return ""
	case slices.Contains(st.MistakesNamed, st.Mistake):
		return say.Sprintf("  it fails as the known mistake make hint named: %s\n", sentence)
	case inWatch:
		return say.Sprintf("  this failure matches a mistake learners often make: h names it (it counts as a hint)\n")
	}
	return say.Sprintf("  this failure matches a mistake learners often make: make hint LESSON=%s EXERCISE=%d names it (it counts as a hint)\n", lesson.Number, exercise)
}

func printFinished(root string, lesson lessons.Lesson, only int) {
	if only > 0 {
		say.Printf("Exercise %d passes. Check the whole lesson: make check LESSON=%s\n", only, lesson.Number)
		return
	}
	all, _ := lessons.Discover(root)
	for i, l := range all {
		if l.Name == lesson.Name && i+1 < len(all) {
			say.Printf("Well done. On to lesson %s: lessons/%s/README.md, then make check LESSON=%s\n", all[i+1].Number, all[i+1].Name, all[i+1].Number)
			return
		}
	}
	say.Printf("Well done: that was the last lesson.\n")
}
