package loop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"workshop.local/scripts/internal/board"
	"workshop.local/scripts/internal/buildprogress"
	"workshop.local/scripts/internal/learner"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/lessons/variants"
	"workshop.local/scripts/internal/ownspecs"
	"workshop.local/scripts/internal/say"
)

// checker builds a lesson's test binary once and runs it as often as asked: `make check` runs
// it once, `make watch` after every save. Ginkgo's own output goes to a log; what the learner
// sees is drawn from its JSON report.
type checker struct {
	root, scratch string
	lesson        lessons.Lesson
	binary        string // the test binary, in .cache/check/bin
	look          look
	out           io.Writer // where build progress goes
	// proving, when set, is told before the proof of a "write your own specs" exercise starts.
	proving func(broken int)
	// edited lists the specs and support files that differ from what the workspace shipped, as
	// of the last run: while it is not empty, results are shown but do not count.
	edited []string
}

func newChecker(root, scratch string, lesson lessons.Lesson, purpose string, out io.Writer, l look) *checker {
	return &checker{
		root: root, scratch: scratch, lesson: lesson, look: l, out: out,
		binary: filepath.Join(scratch, "bin", lesson.Name+"-"+purpose+".test"),
	}
}

// build compiles the learner's files into the test binary. The first build of a lesson can take
// minutes (client-go, controller-runtime), so it shows packages compiled of the total as it goes.
func (c *checker) build(ctx context.Context) error {
	opts := specrun.BuildOptions{Binary: c.binary}
	var st *status
	if _, err := os.Stat(c.binary); err != nil {
		st = newStatus(c.out, c.look)
		opts.Progress = func(p buildprogress.Progress) {
			st.show(fmt.Sprintf("Building lesson %s's specs: %s", c.lesson.Number, p))
		}
	}
	err := specrun.Build(ctx, c.lesson, opts)
	if st != nil {
		st.done()
	}
	return err
}

// logPath is where Ginkgo's full output of the last run goes.
func (c *checker) logPath() string {
	return filepath.Join(c.scratch, "logs", filepath.Base(c.binary)+".log")
}

// run runs the binary's specs for one exercise (0: all). verbose also streams Ginkgo's output.
func (c *checker) run(ctx context.Context, exercise int, verbose io.Writer) (specrun.Result, error) {
	if err := os.MkdirAll(filepath.Dir(c.logPath()), 0o755); err != nil {
		return specrun.Result{}, err
	}
	log, err := os.Create(c.logPath())
	if err != nil {
		return specrun.Result{}, err
	}
	defer log.Close()
	var output io.Writer = log
	args := []string{"-ginkgo.no-color"}
	if verbose != nil {
		output = io.MultiWriter(log, verbose)
		if c.look.color {
			args = nil
		}
	}
	r := specrun.Run{Lesson: c.lesson, Exercise: exercise, ReportDir: c.scratch, Output: output, ExtraArgs: args}
	var res specrun.Result
	switch {
	case ownspecs.OnlyTheProof(c.lesson, exercise):
	case exercise == 0 && verbose == nil:
		// The whole lesson: one process per exercise, side by side, so the exercises not
		// started yet (each spec waiting out its timeout) cost the slowest one, not their sum.
		// VERBOSE=1 streams Ginkgo's output as it comes, so it runs them in one process.
		res, err = specrun.ExecuteByExercise(ctx, r, c.binary, c.lesson.Exercises)
	default:
		res, err = specrun.ExecuteCompiled(ctx, r, c.binary)
	}
	if err == nil && ownspecs.Judges(c.lesson, res, exercise) {
		if broken, _ := variants.Broken(c.lesson); c.proving != nil {
			c.proving(len(broken))
		}
		res, err = ownspecs.WithProof(ctx, c.scratch, c.lesson, res)
	}
	if err == nil {
		c.edited, err = c.lesson.EditedSupport(c.root)
	}
	if err == nil && len(c.edited) == 0 {
		err = c.record(res)
	}
	return res, err
}

// notCounted says, when the learner has edited the specs or their support, that the results
// just shown do not count and how to put the files back; "" when they count.
func (c *checker) notCounted() string {
	if len(c.edited) == 0 {
		return ""
	}
	return say.Sprintf("These results do not count: the specs, or the code they run on, are not as the workspace ships them (%s).\n"+
		"Your progress is not marked, solutions stay folded and the board is not told. Put them back: make reset LESSON=%s",
		strings.Join(c.edited, ", "), c.lesson.Number)
}

// record remembers each checked exercise's outcome for make progress, hint and solution, and
// the known mistake a failing one matches (mistakeOf). After make join, the results also go to
// the instructor's board (best effort, never failing).
func (c *checker) record(res specrun.Result) error {
	now := time.Now()
	sigs, _, err := variants.ReadSignatures(c.lesson)
	if err != nil {
		return err
	}
	err = learner.Update(c.root, func(s *learner.State) {
		for _, e := range res.Exercises() {
			if e.Number > 0 {
				st := s.Exercise(c.lesson.Name, e.Number)
				st.Checked(e.Passed, e.Total, e.FirstFailure.Text, now)
				st.Mistake = mistakeOf(sigs, res, e)
			}
		}
	})
	if err == nil {
		board.Notify(c.root)
	}
	return err
}

// compileFailure prints a build failure: the compiler's file:line lines only, grouped by the
// exercise each belongs to, or the whole output when it has none (a broken go.mod, say).
func (c *checker) compileFailure(w io.Writer, err error) {
	if missing := c.missingSupport(); len(missing) > 0 {
		say.Fprintf(w, "%s lesson %s does not compile: a file the workspace ships is missing (%s).\n"+
			"Put it back: make reset LESSON=%s (the workspace's files come back at once; you are asked before any file of yours is reset).\n",
			c.look.red("✗"), c.lesson.Number, strings.Join(missing, ", "), c.lesson.Number)
		return
	}
	var be *specrun.BuildError
	if !errors.As(err, &be) {
		say.Fprintf(w, "Lesson %s's specs did not build: %v\n", c.lesson.Number, err)
		return
	}
	say.Fprintf(w, "%s lesson %s does not compile.\n", c.look.red("✗"), c.lesson.Number)
	if len(be.Errors) == 0 {
		fmt.Fprintln(w, be.Output)
		return
	}
	byExercise := map[int][]string{}
	for _, ce := range be.Errors {
		n := specrun.ExerciseAt(ce.File, ce.Line)
		rel, _ := filepath.Rel(c.root, ce.File)
		msg := ce.Message
		if i := strings.Index(msg, ".go:"); i >= 0 {
			msg = rel + msg[i+3:]
		}
		byExercise[n] = append(byExercise[n], msg)
	}
	numbers := make([]int, 0, len(byExercise))
	for n := range byExercise {
		numbers = append(numbers, n)
	}
	sort.Ints(numbers)
	for _, n := range numbers {
		if n > 0 {
			say.Fprintf(w, "\nIn exercise %d:\n", n)
		} else {
			say.Fprintf(w, "\nOutside any exercise:\n")
		}
		for _, msg := range byExercise[n] {
			fmt.Fprintln(w, "  "+msg)
		}
	}
	say.Fprintf(w, "\nFix these first: no spec can run until the lesson compiles.\n")
}

// missingSupport lists the specs and support files of the lesson that the learner removed: the
// compiler would blame the exercises for the names they declared.
func (c *checker) missingSupport() []string {
	edited, err := c.lesson.EditedSupport(c.root)
	if err != nil {
		return nil
	}
	var missing []string
	for _, e := range edited {
		if file, ok := strings.CutPrefix(e, "removed: "); ok {
			missing = append(missing, file)
		}
	}
	return missing
}

// unfinishedMark is what every lesson's errNotImplemented says (lessons/NN-topic/doc.go): the
// starter's stubs return or panic with it, so a spec that fails with it met unfinished work.
const unfinishedMark = "is not implemented yet"

// mistakeOf is the one known mistake whose recorded signature the exercise's outcome matches:
// exactly its specs fail (variants.Signatures.Match). None when the exercise passes, when no
// signature or several match (never one picked from several), when the lesson has none, or
// when a spec failed on a stub the learner has not replaced yet: a known mistake is finished
// code that is wrong, and a half-done exercise can fail the same specs as one (measured:
// docs/benchmarks.md, "Naming the mistake").
func mistakeOf(sigs variants.Signatures, res specrun.Result, e specrun.Exercise) string {
	if e.Done() {
		return ""
	}
	var failing, passing []string
	for _, s := range res.Specs {
		switch {
		case s.Exercise != e.Number || s.FromProof:
		case s.Passed:
			passing = append(passing, s.Text)
		case strings.Contains(s.Failure+s.Report.Failure.Message, unfinishedMark):
			return ""
		default:
			failing = append(failing, s.Text)
		}
	}
	if names := sigs.Match(e.Number, failing, passing); len(names) == 1 {
		return names[0]
	}
	return ""
}
