package ownspecs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/lessons/variants"
	"workshop.local/scripts/project"
)

// Package ownspecs proves a "write your own specs" exercise (lesson.yaml's ownSpecs; lesson 10's
// exercise 6): it runs a spec file against the reference operator, where every spec must pass,
// then against each broken operator (a patch of the reference, solutions/NN-topic/broken/), where
// at least one must fail, and says which broken operators the specs did not catch and what kind
// of behaviour those get wrong. make specs, make check and make watch (the learner's file) and
// make test (the reference specs both ways) use it.

// specsVerdict is what one run of the learner's specs against one operator showed.
type specsVerdict struct {
	name, behaviour string // "" for the reference operator
	ran, failed     int
	firstFailure    string
	problem         string // the run proves nothing: a build failure, a suite failure
}

// Prove is make specs: the learner's spec file (file, else the lesson's own-specs file) against
// the reference operator and every broken one, a line each as it goes.
func Prove(ctx context.Context, scratch string, l lessons.Lesson, file string) (bool, error) {
	own := l.OwnSpecs()
	if own == nil {
		return false, fmt.Errorf("lesson %s has no exercise whose specs you write (no ownSpecs in its %s)", l.Number, lessons.ManifestFile)
	}
	if file == "" {
		file = filepath.Join(l.Dir, own.File)
	}
	var err error
	if file, err = filepath.Abs(file); err != nil {
		return false, err
	}
	if _, err := os.Stat(file); err != nil {
		return false, fmt.Errorf("no spec file to prove: %w", err)
	}
	fmt.Printf("Running %s against the reference operator and the broken operators (exercise-%d specs only).\n\n", filepath.Base(file), own.Exercise)
	ref, broken, err := specsAgainstAll(ctx, scratch, l, file, true, func(v specsVerdict) { fmt.Println(v.line()) })
	if err != nil {
		return false, err
	}
	if !ref.passes() {
		fmt.Println("\nyour specs must pass against the reference operator first: the broken operators were not tried.")
		return false, nil
	}
	caught := caughtCount(broken)
	fmt.Printf("\nyour specs: %d of %d broken operators caught\n", caught, len(broken))
	return caught == len(broken), nil
}

// specsAgainstAll runs file's specs against the reference operator, then (unless stop is set
// and they did not pass there) each broken operator, telling report each verdict as it comes.
func specsAgainstAll(ctx context.Context, scratch string, l lessons.Lesson, file string, stop bool, report func(specsVerdict)) (specsVerdict, []specsVerdict, error) {
	list, err := variants.Broken(l)
	if err != nil || len(list) == 0 {
		return specsVerdict{}, nil, errors.Join(err, fmt.Errorf("lesson %s ships no broken operators", l.Number))
	}
	ref := runSpecsAgainst(ctx, scratch, l, "reference", "", func() (map[string]string, error) { return variants.SpecsOverlay(l, file) })
	report(ref)
	if stop && !ref.passes() {
		return ref, nil, nil
	}
	patched := filepath.Join(scratch, "specs", l.Name, "broken") // each broken operator's file, patched
	var verdicts []specsVerdict
	for _, b := range list {
		v := specsVerdict{name: b.Name, behaviour: b.Summary, problem: b.Problem}
		if b.Problem == "" {
			v = runSpecsAgainst(ctx, scratch, l, b.Name, b.Summary, func() (map[string]string, error) { return variants.BrokenOverlay(l, b, file, patched) })
		}
		report(v)
		verdicts = append(verdicts, v)
	}
	return ref, verdicts, nil
}

// Check is make test's proof of a lesson's "write your own specs" exercise, both ways: the
// reference specs pass against the reference operator and catch every broken operator, and a
// spec file with no specs catches none.
func Check(ctx context.Context, scratch string, l lessons.Lesson) (string, error) {
	quiet := func(specsVerdict) {}
	ref, broken, err := specsAgainstAll(ctx, scratch, l, variants.ReferenceSpecs(l), false, quiet)
	if err != nil {
		return "", err
	}
	var problems []string
	if !ref.passes() {
		problems = append(problems, "reference specs against the reference operator: "+ref.line())
	}
	for _, v := range broken {
		if v.problem != "" || v.failed == 0 {
			problems = append(problems, "reference specs: "+v.line())
		}
	}
	empty := filepath.Join(scratch, "specs", l.Name, "empty", l.OwnSpecs().File)
	if err := os.MkdirAll(filepath.Dir(empty), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(empty, []byte("package "+testPackage(l)+"\n"), 0o644); err != nil {
		return "", err
	}
	// stop: an empty file that runs no spec against the reference runs none against a broken
	// operator either (a broken operator replaces the operator's code, never a spec file), so
	// it can catch none, and those builds are saved.
	eref, ebroken, err := specsAgainstAll(ctx, scratch, l, empty, true, quiet)
	if err != nil {
		return "", err
	}
	if eref.problem != "" {
		problems = append(problems, "an empty spec file against the reference operator: "+eref.line())
	}
	if eref.ran != 0 || caughtCount(ebroken) != 0 {
		problems = append(problems, fmt.Sprintf("an empty spec file ran %d specs and caught %d broken operators, want none", eref.ran, caughtCount(ebroken)))
	}
	if len(problems) > 0 {
		return "", errors.New(strings.Join(problems, "\n"))
	}
	return fmt.Sprintf("%d specs catch %d of %d; an empty spec file runs none", ref.ran, len(broken), len(broken)), nil
}

// testPackage is the package name of the own-specs file's package ("operator_test",
// "controller"), read from the suite file beside it.
func testPackage(l lessons.Lesson) string {
	data, err := os.ReadFile(filepath.Join(l.Dir, filepath.Dir(l.OwnSpecs().File), "suite_test.go"))
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if name, ok := strings.CutPrefix(line, "package "); ok {
				return strings.TrimSpace(name)
			}
		}
	}
	return "main_test"
}

func caughtCount(verdicts []specsVerdict) int {
	n := 0
	for _, v := range verdicts {
		if v.problem == "" && v.failed > 0 {
			n++
		}
	}
	return n
}

func (v specsVerdict) passes() bool { return v.problem == "" && v.ran > 0 && v.failed == 0 }

// runSpecsAgainst runs the own-specs exercise's specs on the lesson with overlay in place.
func runSpecsAgainst(ctx context.Context, scratch string, l lessons.Lesson, name, behaviour string, overlay func() (map[string]string, error)) specsVerdict {
	v := specsVerdict{name: name, behaviour: behaviour}
	o, err := overlay()
	if err != nil {
		v.problem = err.Error()
		return v
	}
	logPath := filepath.Join(scratch, "logs", l.Name+"-specs-"+name+".log")
	_ = os.MkdirAll(filepath.Dir(logPath), 0o755)
	log, err := os.Create(logPath)
	if err != nil {
		v.problem = err.Error()
		return v
	}
	defer log.Close()
	run := runLessonSpecs
	if l.OwnSpecs().InProject() {
		run = runProjectSpecs
	}
	res, err := run(ctx, filepath.Join(scratch, "specs", l.Name), l, name, o, log)
	var build *specrun.BuildError
	switch {
	case errors.As(err, &build):
		v.problem = "does not build: " + strings.TrimSpace(lastLines(err.Error(), 6))
		return v
	case err != nil:
		v.problem = err.Error()
	case res.SuiteError != "":
		v.problem = fmt.Sprintf("the suite did not run: %s (log: %s)", res.SuiteError, logPath)
	}
	for _, s := range res.Specs {
		v.ran++
		if !s.Passed {
			v.failed++
			if v.firstFailure == "" {
				v.firstFailure = s.Text + ": " + s.Failure
			}
		}
	}
	return v
}

// runLessonSpecs builds the lesson's own package with overlay and runs its own-specs exercise's
// specs (lesson 10: my_specs_test.go, labelled exercise-6, against the workshop cluster).
func runLessonSpecs(ctx context.Context, dir string, l lessons.Lesson, name string, overlay map[string]string, log io.Writer) (specrun.Result, error) {
	overlayFile := filepath.Join(dir, name+".overlay.json")
	if err := lessons.WriteOverlay(overlay, overlayFile); err != nil {
		return specrun.Result{}, err
	}
	binary := filepath.Join(dir, name+".test")
	if err := specrun.Compile(ctx, l, overlayFile, binary); err != nil {
		return specrun.Result{}, err
	}
	defer os.Remove(binary)
	return specrun.ExecuteCompiled(ctx, specrun.Run{
		Lesson: l, Exercise: l.OwnSpecs().Exercise, ReportDir: dir, Output: log, ExtraArgs: []string{"-ginkgo.no-color"},
	}, binary)
}

// runProjectSpecs runs the package of the own-specs file (lesson 11: internal/controller, the
// learner's envtest suite) with go test in a copy of the project with overlay in place: envtest
// reads the CRDs from config/crd/bases on disk, where no -overlay reaches.
func runProjectSpecs(ctx context.Context, dir string, l lessons.Lesson, name string, overlay map[string]string, log io.Writer) (specrun.Result, error) {
	copyDir := filepath.Join(dir, name+"-project")
	env, err := project.Copy(l.Dir, overlay, copyDir)
	if err != nil {
		return specrun.Result{}, err
	}
	defer os.RemoveAll(copyDir)
	if l.OwnSpecs().Envtest {
		assets, err := envtestAssets(ctx, l)
		if err != nil {
			return specrun.Result{}, err
		}
		env = append(env, "KUBEBUILDER_ASSETS="+assets)
	}
	pkg := "./" + path.Dir(filepath.ToSlash(l.OwnSpecs().File))
	var out strings.Builder
	res, err := specrun.ExecuteIn(ctx, specrun.Run{Lesson: l, ReportDir: dir, Output: io.MultiWriter(log, &out), ExtraArgs: []string{"-ginkgo.no-color"}}, copyDir, pkg, env)
	if err == nil && len(res.Specs) == 0 && strings.Contains(out.String(), "[build failed]") {
		// go test stopped before Ginkgo wrote a report: the compiler's words, with the lesson's paths
		err = &specrun.BuildError{Output: strings.ReplaceAll(out.String(), copyDir, l.Dir)}
	}
	return res, err
}

// envtestAssets is the folder of etcd, kube-apiserver and kubectl for KUBEBUILDER_ASSETS, from the
// local cluster's build (built first if it is missing: make envtest-assets does the same).
func envtestAssets(ctx context.Context, l lessons.Lesson) (string, error) {
	bins, err := binaries.Default(l.Root())
	if err != nil {
		return "", err
	}
	return bins.EnsureEnvtest(ctx, io.Discard)
}

// line is the verdict as make specs prints it: a mark column, then why.
func (v specsVerdict) line() string {
	mark := "ok"
	switch {
	case v.problem != "":
		mark = "broken"
	case v.name == "reference" && !v.passes():
		mark = "FAIL"
	case v.name != "reference" && v.failed > 0:
		mark = "caught"
	case v.name != "reference":
		mark = "NOT caught"
	}
	return fmt.Sprintf("%-10s %s", mark, v.why())
}

// why says what the verdict means, in the learner's terms.
func (v specsVerdict) why() string {
	switch {
	case v.problem != "":
		return v.name + ": " + v.problem
	case v.name == "reference" && v.ran == 0:
		return "reference operator: no spec of this exercise ran: write some in your spec file"
	case v.name == "reference" && v.failed > 0:
		return fmt.Sprintf("reference operator: %d of %d of your specs fail against the operator that works, so they expect something wrong:\n           %s", v.failed, v.ran, lastLines(v.firstFailure, 3))
	case v.name == "reference":
		return fmt.Sprintf("reference operator: all %d of your specs pass", v.ran)
	case v.failed > 0:
		return fmt.Sprintf("%s: %d of %d specs fail", v.name, v.failed, v.ran)
	}
	return fmt.Sprintf("%s: %s; none of your %d specs noticed", v.name, v.behaviour, v.ran)
}

// lastLines keeps at most n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n           ")
}

// Judges says whether a check of the lesson decides its "write your own specs" exercise
// by the proof (make check, make watch): when that exercise alone is checked, or the whole
// lesson once every other exercise passes. Before that, the learner's specs run against the
// learner's own operator only, which proves little, and the proof's builds would slow every check.
func Judges(l lessons.Lesson, res specrun.Result, exercise int) bool {
	if l.OwnSpecs() == nil {
		return false
	}
	switch {
	case l.IsOwnSpecs(exercise):
		return true
	case exercise == 0:
		for _, e := range res.Exercises() {
			if !l.IsOwnSpecs(e.Number) && !e.Done() {
				return false
			}
		}
		return true
	}
	return false
}

// OnlyTheProof says whether a check of exercise needs nothing but the proof: the "write your own
// specs" exercise alone, whose specs would otherwise also run against the learner's operator,
// perhaps unfinished, waiting for what it does not do yet.
func OnlyTheProof(l lessons.Lesson, exercise int) bool { return l.IsOwnSpecs(exercise) }

// WithProof replaces the result's specs of the "write your own specs" exercise with the
// proof's verdicts, one per operator: your specs pass against the reference operator, and catch
// each broken one. So make check's summary, make progress and the board count them like specs.
func WithProof(ctx context.Context, scratch string, l lessons.Lesson, res specrun.Result) (specrun.Result, error) {
	own := l.OwnSpecs()
	container := fmt.Sprintf("Exercise %d: your own specs", own.Exercise)
	var kept []specrun.Spec
	for _, s := range res.Specs {
		if s.Exercise == own.Exercise {
			container = s.Container
			continue
		}
		kept = append(kept, s)
	}
	ref, broken, err := specsAgainstAll(ctx, scratch, l, filepath.Join(l.Dir, own.File), true, func(specsVerdict) {})
	if err != nil || ctx.Err() != nil {
		return res, errors.Join(err, ctx.Err())
	}
	proof := []specrun.Spec{proofSpec(own.Exercise, container, "your specs pass against the reference operator", ref.passes(), ref.why())}
	list, _ := variants.Broken(l)
	for i, b := range list {
		text := fmt.Sprintf("your specs catch the broken operator %s (%s)", b.Name, b.Summary)
		if i >= len(broken) {
			proof = append(proof, proofSpec(own.Exercise, container, text, false, "not tried yet: your specs must pass against the reference operator first"))
			continue
		}
		caught := broken[i].problem == "" && broken[i].failed > 0
		proof = append(proof, proofSpec(own.Exercise, container, text, caught, broken[i].why()))
	}
	res.Specs = append(kept, proof...)
	return res, nil
}

// proofSpec is one verdict of the proof, shaped as a spec; its failure is the verdict's line.
func proofSpec(exercise int, container, text string, passed bool, line string) specrun.Spec {
	s := specrun.Spec{
		Text: container + " " + text, Container: container, Exercise: exercise,
		Passed: passed, FromProof: true,
	}
	s.Report.ContainerHierarchyTexts = []string{container}
	s.Report.LeafNodeText = text
	if !passed {
		s.Failure = strings.TrimSpace(line)
	}
	return s
}
