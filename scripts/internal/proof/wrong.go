package proof

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/generated"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/lessons/variants"
	"workshop.local/scripts/internal/text"
)

// minWrongPerExercise is how many wrong solutions each exercise needs: a spec that only catches
// the empty starter teaches nothing.
const minWrongPerExercise = 3

// The three outcomes of a wrong solution's proof.
const (
	caught    = "caught"
	notCaught = "NOT caught"
	broken    = "broken"
)

// proof is the outcome of one wrong solution: the reference solution with the wrong file in
// place of its own, run on the specs of the wrong solution's exercise only.
type proof struct {
	wrong    variants.Patch
	verdict  string // caught, notCaught or broken
	detail   string // which spec caught it, or why it was not caught or could not run
	failure  string // the catching spec's failure message, for authors
	quickest string // the full text of the failing spec that took least time
	// failing and passing are the full texts of the exercise's specs that ran, by outcome:
	// the wrong solution's signature when every spec ran (make signatures).
	failing, passing []string
	fellBack         bool // the spec that caught it last passed, so the whole exercise ran
	build, run       time.Duration
}

func (p proof) line() string {
	return fmt.Sprintf("%-10s exercise %d  %s (%s): %s", p.verdict, p.wrong.Exercise, p.wrong.Name, p.wrong.File, p.detail)
}

// compiled is a wrong solution's test binary, built ahead of its run.
type compiled struct {
	wrong       variants.Patch
	binary      string
	overlayFile string // the -overlay file it was built with, which its specs are told of
	ownAPI      bool   // its types generate a CRD unlike the solution's (lesson 10's exercise 1)
	// applied says the patch applied, so an error is the build's, not the patch's.
	applied bool
	shared  bool     // binary is the shared one (sharedBinary), kept until every run is done
	env     []string // what picks this wrong solution in the shared binary
	err     error
	took    time.Duration
}

// wrongRunsAtOnce is how many wrong solutions' test binaries run side by side. A wrong
// controller is often caught only when a wait for the cluster runs out, so a run mostly sleeps:
// three at once cut those lessons' proofs without crowding two cores (docs/benchmarks.md has
// the figures for two and three). Runs share the cluster safely: every spec works in a
// namespace of its own.
const wrongRunsAtOnce = 3

// proveWrong proves each wrong solution of a lesson, calling report in name order as each is
// judged. Building a test binary (mostly linking) costs more than running one exercise's specs,
// so one build per CPU runs ahead of the binaries being run; at most that many binaries wait on
// disk at a time. firstFailure stops each run at its first failing spec: enough for a verdict.
// caughtBy names, per wrong solution, a spec to run first (variants.CaughtByFile); nil runs
// every spec of the exercise.
func proveWrong(ctx context.Context, scratch string, l lessons.Lesson, list []variants.Patch, firstFailure bool, caughtBy map[string]string, report func(proof)) ([]proof, *sharedBinary) {
	dir := filepath.Join(scratch, "wrong", l.Name)
	shared := newSharedBinary(dir, l, list)
	defer shared.remove()
	ahead := make(chan struct{}, runtime.NumCPU()+wrongRunsAtOnce) // builds running or waiting, plus those being run
	running := make(chan struct{}, wrongRunsAtOnce)
	// The specs of a generating lesson install the CRD of the code they run. A CRD is
	// cluster-wide, so a wrong API (its own CRD) runs alone; the others share the solution's.
	// So does a wrong solution of an exercise lesson.yaml lists as alone (lesson 11's exercise
	// 5 uninstalls the CRD).
	var crd sync.RWMutex
	judged := make([]chan proof, len(list))
	for i := range judged {
		judged[i] = make(chan proof, 1)
	}
	go func() {
		for i, w := range list {
			ahead <- struct{}{}
			go func() {
				b, ok := shared.compiled(ctx, l, w)
				if !ok {
					b = compileWrong(ctx, dir, l, w)
				}
				hold, release := crd.RLock, crd.RUnlock
				if b.ownAPI || slices.Contains(l.Manifest.Alone, w.Exercise) {
					hold, release = crd.Lock, crd.Unlock
				}
				running <- struct{}{}
				hold()
				judged[i] <- judgeQuickly(ctx, scratch, dir, l, b, firstFailure, caughtBy[w.Name])
				release()
				<-running
				if b.binary != "" && !b.shared {
					_ = os.Remove(b.binary)
				}
				<-ahead
			}()
		}
	}()
	var proofs []proof
	for i := range list {
		p := <-judged[i]
		proofs = append(proofs, p)
		report(p)
	}
	return proofs, shared
}

// compileWrong builds the test binary of the solution with w in place; a malformed wrong
// solution is passed on unbuilt.
func compileWrong(ctx context.Context, dir string, l lessons.Lesson, w variants.Patch) compiled {
	if w.Problem != "" || ctx.Err() != nil {
		return compiled{wrong: w, err: ctx.Err()}
	}
	start := time.Now()
	overlay, err := variants.Overlay(l, w, dir)
	if err != nil {
		return compiled{wrong: w, err: err}
	}
	// A wrong API type generates its own manifest (lesson 10): the specs install that one.
	ownAPI, err := generated.Overlay(ctx, l, overlay, filepath.Join(dir, w.Name+".generated"))
	if err != nil {
		return compiled{wrong: w, err: err, applied: true}
	}
	overlayFile := filepath.Join(dir, w.Name+".overlay.json")
	if err := lessons.WriteOverlay(overlay, overlayFile); err != nil {
		return compiled{wrong: w, err: err, applied: true}
	}
	binary := filepath.Join(dir, w.Name+".test")
	err = withBuildSlot(ctx, func() error { return specrun.Compile(ctx, l, overlayFile, binary) })
	if err != nil {
		binary = ""
	}
	return compiled{wrong: w, binary: binary, overlayFile: overlayFile, ownAPI: ownAPI, err: err, applied: true, took: time.Since(start)}
}

// judgeQuickly runs first, the spec that caught the wrong solution last time, alone; only if
// it does not fail now (the specs or the patch changed) does the whole exercise run. Either way
// the verdict is a spec of the wrong solution's exercise failing on it in this run.
func judgeQuickly(ctx context.Context, scratch, dir string, l lessons.Lesson, b compiled, firstFailure bool, first string) proof {
	if first != "" && b.err == nil && b.wrong.Problem == "" {
		p := judge(ctx, scratch, dir, l, b, firstFailure, first)
		if p.verdict == caught || ctx.Err() != nil {
			return p
		}
		p = judge(ctx, scratch, dir, l, b, firstFailure, "")
		p.fellBack = true
		return p
	}
	return judge(ctx, scratch, dir, l, b, firstFailure, "")
}

// judge runs a built wrong solution on its exercise's specs (only the one whose full text is
// focus, if given) and says whether a spec caught it. Only a failing spec counts: a build
// failure or a suite that did not run proves nothing.
func judge(ctx context.Context, scratch, dir string, l lessons.Lesson, b compiled, firstFailure bool, focus string) proof {
	p := proof{wrong: b.wrong, build: b.took, verdict: broken}
	switch {
	case b.wrong.Problem != "":
		p.detail = b.wrong.Problem
		return p
	case b.err != nil && b.applied:
		p.detail = "does not compile, so it proves nothing:\n" + text.Tail(b.err.Error(), 6, "  ")
		return p
	case b.err != nil:
		p.detail = b.err.Error()
		return p
	}
	logPath := filepath.Join(scratch, "logs", l.Name+"-wrong-"+b.wrong.Name+".log")
	_ = os.MkdirAll(filepath.Dir(logPath), 0o755)
	log, err := os.Create(logPath)
	if err != nil {
		p.detail = err.Error()
		return p
	}
	defer log.Close()
	args := []string{"-ginkgo.no-color"}
	if firstFailure {
		args = append(args, "-ginkgo.fail-fast")
	}
	if focus != "" {
		args = append(args, "-ginkgo.focus="+regexp.QuoteMeta(focus))
	}
	start := time.Now()
	// The report goes in a folder of the wrong solution's own: the runs of a shared binary
	// would otherwise all write one report, named after the binary.
	res, err := specrun.ExecuteCompiled(ctx, specrun.Run{
		Lesson: l, Exercise: b.wrong.Exercise, ReportDir: filepath.Join(dir, b.wrong.Name), Output: log, ExtraArgs: args, OverlayFile: b.overlayFile, Env: b.env,
	}, b.binary)
	p.run += time.Since(start)
	switch {
	case err != nil:
		p.detail = err.Error()
	case res.SuiteError != "":
		p.detail = fmt.Sprintf("the suite did not run its specs, so it proves nothing: %s (log: %s)", res.SuiteError, logPath)
	case len(res.Specs) == 0:
		p.detail = fmt.Sprintf("no spec is labelled exercise-%d", b.wrong.Exercise)
	default:
		p.verdict, p.detail, p.failure, p.quickest = verdictOf(res, b.wrong.Exercise)
		for _, s := range res.Specs {
			if s.Passed {
				p.passing = append(p.passing, s.Text)
			} else {
				p.failing = append(p.failing, s.Text)
			}
		}
	}
	return p
}

// verdictOf names the specs that failed, or says that every spec passed, and gives the full text
// of the failing spec that took least time.
func verdictOf(res specrun.Result, exercise int) (verdict, detail, failure, quickest string) {
	var failed []specrun.Spec
	for _, s := range res.Specs {
		if !s.Passed {
			failed = append(failed, s)
		}
	}
	if len(failed) == 0 {
		return notCaught, fmt.Sprintf("all %d specs of exercise %d pass", len(res.Specs), exercise), "", ""
	}
	for _, s := range failed {
		if where := s.PanickedInSpecs(); where != "" {
			return broken, fmt.Sprintf("%q panicked in the specs' own code (%s: %s): a wrong answer must fail a spec with a message, not crash it", s.Text, where, s.Failure), "", ""
		}
	}
	detail = fmt.Sprintf("by %q", failed[0].Text)
	if len(failed) > 1 {
		detail += fmt.Sprintf(" and %d more of %d specs", len(failed)-1, len(res.Specs))
	}
	quick := slices.MinFunc(failed, func(a, b specrun.Spec) int { return cmp.Compare(a.Report.RunTime, b.Report.RunTime) })
	return caught, detail, failed[0].Failure, quick.Text
}

// tooFew lists the exercises that have fewer than minWrongPerExercise wrong solutions. A
// "write your own specs" exercise (a lesson with broken operators) is proven by those instead.
func tooFew(l lessons.Lesson, list []variants.Patch, exercises []int) []string {
	exercises = slices.DeleteFunc(slices.Clone(exercises), l.IsOwnSpecs)
	count := map[int]int{}
	for _, w := range list {
		count[w.Exercise]++
	}
	var short []string
	for _, n := range exercises {
		if count[n] < minWrongPerExercise {
			short = append(short, fmt.Sprintf("exercise %d has %d wrong solutions, at least %d are needed (solutions/<lesson>/wrong/<name>.patch: make wrong-edit)", n, count[n], minWrongPerExercise))
		}
	}
	return short
}

// wrongCheck is make test's check of a lesson's wrong solutions: each is caught by a spec of its
// exercise, and every exercise the solution run found has enough of them.
func (t *tester) wrongCheck(l lessons.Lesson, solved *[]int) check {
	return check{"lesson " + l.Number + ": every wrong solution is caught by its exercise's specs", func(ctx context.Context) (string, error) {
		list, err := variants.Wrong(l)
		if err != nil {
			return "", err
		}
		caughtBy, err := variants.CaughtBy(l)
		if err != nil {
			return "", err
		}
		// One failing spec is a verdict: stop there (make test-wrong runs them all, for authors),
		// and try first the spec that caught each wrong solution last time.
		proofs, shared := proveWrong(ctx, t.scratch, l, list, true, caughtBy, func(proof) {})
		t.mu.Lock()
		defer t.mu.Unlock()
		var problems []string
		n, stale := 0, 0
		for _, p := range proofs {
			if p.fellBack || caughtBy[p.wrong.Name] == "" {
				stale++
			}
			t.wrongTotal++
			if p.verdict == caught {
				n++
				t.wrongCaught++
				continue
			}
			t.wrongMissed = append(t.wrongMissed, l.Name+"/wrong/"+p.wrong.Name+" ("+p.verdict+")")
			problems = append(problems, p.line())
		}
		// The runs that fell back found the spec to try first next time, whatever the verdict
		// on the others.
		if stale > 0 {
			if err := recordCaughtBy(l, proofs, true); err != nil {
				return "", err
			}
		}
		problems = append(problems, tooFew(l, list, *solved)...)
		if len(problems) > 0 {
			return "", fmt.Errorf("%d of %d caught\n%s", n, len(proofs), strings.Join(problems, "\n"))
		}
		summary := fmt.Sprintf("%d of %d caught", n, len(proofs))
		if s := shared.summary(); s != "" {
			summary += "; " + s
		}
		if stale > 0 {
			summary += fmt.Sprintf("; %d ran their whole exercise (no line, or a stale one, in wrong/%s: now written, commit it)", stale, variants.CaughtByFile)
		}
		return summary, nil
	}}
}

// printWrongSummary is make test's line about all wrong solutions, with the ones not caught.
func (t *tester) printWrongSummary() {
	fmt.Printf("\nwrong solutions: %d of %d caught\n", t.wrongCaught, t.wrongTotal)
	for _, name := range t.wrongMissed {
		fmt.Printf("  not caught: %s\n", name)
	}
}

// Wrong is `make test-wrong LESSON=NN [WRONG=name] [QUICK=1]`: the authors' loop, proving one
// lesson's wrong solutions (or one of them) and saying for each which spec caught it. Quick
// proves them as make test does: the recorded spec first, and each run stops at its first
// failing spec.
func Wrong(ctx context.Context, scratch string, l lessons.Lesson, only string, quick bool) (bool, error) {
	list, err := variants.Wrong(l)
	if err != nil {
		return false, err
	}
	if only != "" {
		list, err = pickWrong(l, list, only)
		if err != nil {
			return false, err
		}
	}
	if len(list) == 0 {
		fmt.Printf("Lesson %s has no wrong solutions yet: add one with make wrong-edit LESSON=%s WRONG=<kebab-name> FILE=<file>.go (see docs/authoring.md).\n", l.Number, l.Number)
		return false, nil
	}
	if err := os.MkdirAll(filepath.Join(scratch, "logs"), 0o755); err != nil {
		return false, err
	}
	fmt.Printf("Proving %d wrong solutions of lesson %s: each patches one solution file, and only its exercise's specs run.\n\n", len(list), l.Name)
	start := time.Now()
	var build, run time.Duration
	var caughtBy map[string]string
	if quick {
		if caughtBy, err = variants.CaughtBy(l); err != nil {
			return false, err
		}
	}
	proofs, shared := proveWrong(ctx, scratch, l, list, quick, caughtBy, func(p proof) {
		build, run = build+p.build, run+p.run
		fmt.Printf("%s  [build %.1fs, specs %.1fs]\n", p.line(), p.build.Seconds(), p.run.Seconds())
		if p.failure != "" {
			fmt.Printf("           %s\n", p.failure)
		}
	})
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	n := 0
	for _, p := range proofs {
		if p.verdict == caught {
			n++
		}
	}
	fmt.Printf("\nwrong solutions: %d of %d caught (%.1fs in all; builds %.1fs and specs %.1fs, overlapped: builds run in parallel)\n",
		n, len(proofs), time.Since(start).Seconds(), build.Seconds(), run.Seconds())
	if s := shared.summary(); s != "" {
		fmt.Println("  " + s)
	}
	if err := recordCaughtBy(l, proofs, only == ""); err != nil {
		return false, err
	}
	if only == "" {
		for _, s := range tooFew(l, list, l.Exercises) {
			fmt.Println("  " + s)
		}
	}
	return n == len(proofs), nil
}

// pickWrong keeps the wrong solution named only.
func pickWrong(l lessons.Lesson, list []variants.Patch, only string) ([]variants.Patch, error) {
	var names []string
	for _, w := range list {
		if w.Name == only {
			return []variants.Patch{w}, nil
		}
		names = append(names, w.Name)
	}
	return nil, fmt.Errorf("lesson %s has no wrong solution %q; it has: %s", l.Number, only, strings.Join(names, ", "))
}

// recordCaughtBy keeps, in the lesson's variants.CaughtByFile, the quickest catching spec of each
// wrong solution just proven, and forgets those not caught. A run of every wrong solution
// (whole) also forgets the names that are no longer wrong solutions.
func recordCaughtBy(l lessons.Lesson, proofs []proof, whole bool) error {
	caughtBy, err := variants.CaughtBy(l)
	if err != nil {
		return err
	}
	if whole {
		caughtBy = map[string]string{}
	}
	for _, p := range proofs {
		if p.verdict == caught && p.quickest != "" {
			caughtBy[p.wrong.Name] = p.quickest
		} else {
			delete(caughtBy, p.wrong.Name)
		}
	}
	return variants.WriteCaughtBy(l, caughtBy)
}
