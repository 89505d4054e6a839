package proof

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/lessons/variants"
	"workshop.local/scripts/internal/ownspecs"
)

// lessonChecks prove one lesson: the solution passes every spec, the untouched starter
// fails every spec of every exercise (a spec that passes on the starter cannot tell a learner
// anything), and every wrong solution fails a spec of its exercise (one that only the starter
// fails teaches nothing either).
func (t *tester) lessonChecks(l lessons.Lesson) []check {
	var solved []int // exercises the solution run found, shared with the starter check
	checks := []check{
		{"lesson " + l.Number + ": solution passes its specs", func(ctx context.Context) (string, error) {
			res, err := t.runSpecs(ctx, l, true)
			if err != nil {
				return "", err
			}
			solved = exerciseNumbers(res)
			return solutionVerdict(res)
		}},
		{"lesson " + l.Number + ": untouched starter fails every exercise", func(ctx context.Context) (string, error) {
			res, err := t.runStarter(ctx, l, solved)
			if err != nil {
				return "", err
			}
			return starterVerdict(l, res, solved)
		}},
		t.wrongCheck(l, &solved),
	}
	if l.OwnSpecs() != nil { // a "write your own specs" exercise: proven both ways
		checks = append(checks, check{"lesson " + l.Number + ": the reference specs catch every broken operator, an empty spec file runs none", func(ctx context.Context) (string, error) {
			return ownspecs.Check(ctx, t.scratch, l)
		}})
	}
	if l.Manifest.Interrupt != nil { // it starts processes or admission objects: stopping it must leave none
		checks = append(checks, t.interruptCheck(l))
	}
	if _, measured, _ := variants.ReadSignatures(l); measured { // make check can name its mistakes
		checks = append(checks, t.namedMistakeCheck(l))
	}
	return checks
}

// runSpecs runs the lesson's specs with or without the solution, logging the output to a file.
func (t *tester) runSpecs(ctx context.Context, l lessons.Lesson, withSolution bool) (specrun.Result, error) {
	kind := "starter"
	run := specrun.Run{Lesson: l, ReportDir: t.scratch, ExtraArgs: []string{"-ginkgo.no-color"}}
	if withSolution {
		kind = "solution"
		overlay, err := l.WriteOverlayFile(t.scratch)
		if err != nil {
			return specrun.Result{}, err
		}
		run.OverlayFile = overlay
	}
	logPath := filepath.Join(t.scratch, "logs", l.Name+"-"+kind+".log")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return specrun.Result{}, err
	}
	log, err := os.Create(logPath)
	if err != nil {
		return specrun.Result{}, err
	}
	defer log.Close()
	run.Output = log
	res, err := specrun.Execute(ctx, run)
	if err == nil && res.SuiteError != "" {
		err = fmt.Errorf("%s (log: %s)", res.SuiteError, logPath)
	}
	return res, err
}

// runStarter runs the untouched starter's specs one process per exercise, side by side
// (specrun.ExecuteByExercise): a starter's specs mostly wait for what never comes. Specs of no
// exercise the solution run found run too, so starterVerdict still sees them.
func (t *tester) runStarter(ctx context.Context, l lessons.Lesson, exercises []int) (specrun.Result, error) {
	if len(exercises) == 0 {
		return t.runSpecs(ctx, l, false) // the solution run found none: nothing to split by
	}
	dir := filepath.Join(t.scratch, "starter", l.Name)
	binary := filepath.Join(dir, l.Name+".test")
	if err := withBuildSlot(ctx, func() error { return specrun.Compile(ctx, l, "", binary) }); err != nil {
		return specrun.Result{}, err
	}
	defer os.Remove(binary)
	logPath := filepath.Join(t.scratch, "logs", l.Name+"-starter.log")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return specrun.Result{}, err
	}
	log, err := os.Create(logPath)
	if err != nil {
		return specrun.Result{}, err
	}
	defer log.Close()
	res, err := specrun.ExecuteByExercise(ctx, specrun.Run{
		Lesson: l, ReportDir: dir, Output: log, ExtraArgs: []string{"-ginkgo.no-color"},
	}, binary, exercises)
	if err == nil && res.SuiteError != "" {
		err = fmt.Errorf("%s (log: %s)", res.SuiteError, logPath)
	}
	return res, err
}

func solutionVerdict(res specrun.Result) (string, error) {
	if len(res.Specs) == 0 {
		return "", errors.New("no specs ran")
	}
	var failing []string
	for _, s := range res.Specs {
		if !s.Passed {
			failing = append(failing, s.Text+": "+s.Failure)
		}
	}
	if len(failing) > 0 {
		return "", fmt.Errorf("%d of %d specs fail with the solution:\n%s", len(failing), len(res.Specs), strings.Join(failing, "\n"))
	}
	return fmt.Sprintf("%d of %d specs pass", len(res.Specs), len(res.Specs)), nil
}

// starterVerdict wants every spec labeled with an exercise, every spec failing, and the
// exercises the README introduces (lessons.Lesson.Exercises): each labelled on specs of the
// solution run and of the starter's, none besides. An own-specs exercise whose specs live in the
// project (lesson 11's envtest suite) has none here. The TODO markers are checked statically.
func starterVerdict(l lessons.Lesson, res specrun.Result, solved []int) (string, error) {
	var problems []string
	for _, s := range res.Specs {
		switch {
		case s.Exercise == 0:
			problems = append(problems, "spec has no exercise label (use harness.Exercise(n)): "+s.Text)
		case s.Passed:
			problems = append(problems, fmt.Sprintf("passes on the untouched starter, so it checks nothing of exercise %d: %s", s.Exercise, s.Text))
		}
	}
	started := exerciseNumbers(res)
	if solved != nil && !slices.Equal(started, solved) {
		problems = append(problems, fmt.Sprintf("the starter run has exercises %v but the solution run %v", started, solved))
	}
	if want := labelledExercises(l); !slices.Equal(started, want) {
		problems = append(problems, fmt.Sprintf("the specs are labelled with exercises %v, but the README introduces %v", started, want))
	}
	if len(res.Specs) == 0 {
		problems = append(problems, "no specs ran")
	}
	if len(problems) > 0 {
		return "", errors.New(strings.Join(problems, "\n"))
	}
	return fmt.Sprintf("exercises %v: all %d specs fail", started, len(res.Specs)), nil
}

// labelledExercises are the README's exercises whose specs the lesson's suite runs: all but an
// own-specs exercise in the project, sorted as a run's results are.
func labelledExercises(l lessons.Lesson) []int {
	var want []int
	for _, n := range l.Exercises {
		if own := l.OwnSpecs(); own != nil && own.Exercise == n && own.InProject() {
			continue
		}
		want = append(want, n)
	}
	slices.Sort(want)
	return want
}

func exerciseNumbers(res specrun.Result) []int {
	var numbers []int
	for _, e := range res.Exercises() {
		numbers = append(numbers, e.Number)
	}
	return numbers
}
