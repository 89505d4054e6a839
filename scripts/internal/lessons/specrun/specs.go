// Package specrun builds a lesson's specs and runs them, and reads what Ginkgo reports back as a
// Result: spec by spec, and exercise by exercise. A build is `go test -c` (Build, Compile), a
// failed one says which exercise each compiler line belongs to (ExerciseAt); a run is go test
// (Execute) or a binary built before (ExecuteCompiled), once per exercise side by side
// (ExecuteByExercise). `make check` and `make test` are built on it.
package specrun

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/subprocess"
	"workshop.local/scripts/internal/text"
	"workshop.local/scripts/project"
)

// Run says how to run a lesson's specs.
type Run struct {
	Lesson      lessons.Lesson
	OverlayFile string    // "" runs the learner's files; else go build's -overlay file
	Exercise    int       // 0 runs every exercise; N runs the specs labeled exercise-N
	ReportDir   string    // where Ginkgo's JSON report goes
	Output      io.Writer // go test's and Ginkgo's output
	ExtraArgs   []string  // more go test or -ginkgo.* flags
	Env         []string  // more environment (a shared build's variants.VariantEnv)
}

// Spec is one spec's outcome.
type Spec struct {
	Text      string // full text: containers and leaf
	Container string // the outermost container, e.g. "Exercise 1: ParseGVK"
	Exercise  int    // from its exercise-N label; 0 if it has none
	Passed    bool
	Failure   string           // the failure message, its first few meaningful lines
	Report    types.SpecReport // everything Ginkgo recorded, to print the spec in full
	// FromProof marks a verdict of the check tool's own proof shaped as a spec (lesson 10's
	// "write your own specs"): Report holds only its texts, nothing to print in full.
	FromProof bool
}

// Result is what one run of a lesson's specs produced.
type Result struct {
	Specs      []Spec
	SuiteError string // why the suite did not run its specs (build error, BeforeSuite failure)
	// SuiteFailures are the failed nodes around the specs (BeforeSuite and friends), in full.
	SuiteFailures []types.SpecReport
}

// Merge adds another run's outcome to res, for specs run in several processes.
func (res *Result) Merge(other Result) {
	res.Specs = append(res.Specs, other.Specs...)
	if res.SuiteError == "" {
		res.SuiteError = other.SuiteError
	}
	res.SuiteFailures = append(res.SuiteFailures, other.SuiteFailures...)
}

// Execute runs `go test` in the lesson's folder with a Ginkgo JSON report and reads it back.
// -count=1 because the specs check a live cluster: a cached pass would prove nothing.
func Execute(ctx context.Context, r Run) (Result, error) {
	report := filepath.Join(r.ReportDir, "report-"+r.Lesson.Name+".json")
	_ = os.Remove(report)
	if err := os.MkdirAll(r.ReportDir, 0o755); err != nil {
		return Result{}, err
	}
	args := append([]string{"test", "-count=1"}, r.Lesson.TestFlags()...)
	if r.OverlayFile != "" {
		args = append(args, "-overlay="+r.OverlayFile)
	}
	args = append(args, ".", "-ginkgo.json-report="+report)
	if r.Exercise > 0 {
		args = append(args, fmt.Sprintf("-ginkgo.label-filter=exercise-%d", r.Exercise))
	}
	args = append(args, r.ExtraArgs...)
	env, err := r.env(ctx)
	if err != nil {
		return Result{}, err
	}
	cmd := subprocess.Command(ctx, "go", args...)
	cmd.Dir, cmd.Env = r.Lesson.Dir, env
	cmd.Stdout, cmd.Stderr = r.Output, r.Output
	runErr := cmd.Run() // failing specs exit non-zero: the report says what happened
	return resultOf(ctx, runErr, report)
}

// ExecuteIn runs `go test` on the package pkg (./internal/controller) in dir, a copy of the
// lesson's project (scripts/project), with env added, and reads the Ginkgo report back. No
// build tags and no exercise filter: these are the learner's own specs (lesson 11's envtest
// suite), which know nothing of the workshop's.
func ExecuteIn(ctx context.Context, r Run, dir, pkg string, env []string) (Result, error) {
	report := filepath.Join(r.ReportDir, "report-"+r.Lesson.Name+"-"+filepath.Base(dir)+".json")
	_ = os.Remove(report)
	if err := os.MkdirAll(r.ReportDir, 0o755); err != nil {
		return Result{}, err
	}
	args := append([]string{"test", "-count=1", pkg, "-ginkgo.json-report=" + report}, r.ExtraArgs...)
	cmd := subprocess.Command(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = r.Output, r.Output
	runErr := cmd.Run()
	return resultOf(ctx, runErr, report)
}

// resultOf reads the report a run left, or says why there is none.
func resultOf(ctx context.Context, runErr error, report string) (Result, error) {
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	res, err := readReport(report)
	if err != nil {
		return Result{SuiteError: fmt.Sprintf("the specs did not run (%v): see the output above", runErr)}, nil
	}
	return res, nil
}

// Compile builds the lesson's test binary with go build's -overlay file applied, without
// running it: `go test -c`. Building is most of a short run's cost, so a caller can build the
// next binary while the current one runs. On failure the error holds the compiler's output.
func Compile(ctx context.Context, l lessons.Lesson, overlayFile, binary string) error {
	return Build(ctx, l, BuildOptions{OverlayFile: overlayFile, Binary: binary})
}

// ExecuteCompiled runs a binary that Compile built, in the lesson's folder as go test would,
// with r's exercise filter, report and output. r.OverlayFile was compiled in; the specs are told
// its path (OverlayEnv).
func ExecuteCompiled(ctx context.Context, r Run, binary string) (Result, error) {
	report := filepath.Join(r.ReportDir, "report-"+filepath.Base(binary)+".json")
	_ = os.Remove(report)
	if err := os.MkdirAll(r.ReportDir, 0o755); err != nil {
		return Result{}, err
	}
	cmd, err := r.Command(ctx, binary, report)
	if err != nil {
		return Result{}, err
	}
	return resultOf(ctx, cmd.Run(), report)
}

// Command is the command ExecuteCompiled runs: binary with r's exercise filter, writing its
// Ginkgo JSON report to report, in the lesson's folder, ended with ctx (package subprocess).
func (r Run) Command(ctx context.Context, binary, report string) (*exec.Cmd, error) {
	// go test's default 10 minute limit, which a binary run by hand does not have.
	args := []string{"-test.timeout=10m", "-ginkgo.json-report=" + report}
	if r.Exercise > 0 {
		args = append(args, fmt.Sprintf("-ginkgo.label-filter=exercise-%d", r.Exercise))
	}
	args = append(args, r.ExtraArgs...)
	env, err := r.env(ctx)
	if err != nil {
		return nil, err
	}
	cmd := subprocess.Command(ctx, binary, args...)
	cmd.Dir, cmd.Env = r.Lesson.Dir, env
	cmd.Stdout, cmd.Stderr = r.Output, r.Output
	return cmd, nil
}

func readReport(path string) (Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Result{}, err
	}
	var reports []types.Report
	if err := json.Unmarshal(data, &reports); err != nil {
		return Result{}, fmt.Errorf("read %s: %w", path, err)
	}
	var res Result
	for _, report := range reports {
		for _, sr := range report.SpecReports {
			res.add(sr)
		}
	}
	return res, nil
}

// add records a spec, or the reason the suite failed around the specs (BeforeSuite and friends).
func (res *Result) add(sr types.SpecReport) {
	if sr.LeafNodeType != types.NodeTypeIt {
		if sr.State.Is(types.SpecStateFailureStates) {
			if res.SuiteError == "" {
				res.SuiteError = fmt.Sprintf("%s failed: %s", sr.LeafNodeType, text.FirstLine(sr.Failure.Message))
			}
			res.SuiteFailures = append(res.SuiteFailures, sr)
		}
		return
	}
	if sr.State == types.SpecStateSkipped || sr.State == types.SpecStatePending {
		return // filtered out by the label filter, or a failed BeforeSuite skipped it
	}
	failure := briefly(sr.Failure.Message)
	if sr.State == types.SpecStatePanicked {
		failure = "panicked: " + text.FirstLine(sr.Failure.ForwardedPanic)
	}
	container := sr.LeafNodeText
	if len(sr.ContainerHierarchyTexts) > 0 {
		container = sr.ContainerHierarchyTexts[0]
	}
	res.Specs = append(res.Specs, Spec{
		Text:      sr.FullText(),
		Container: container,
		Exercise:  exerciseOf(sr.Labels()),
		Passed:    sr.State == types.SpecStatePassed,
		Failure:   failure,
		Report:    sr,
	})
}

var exerciseLabel = regexp.MustCompile(`^exercise-(\d+)$`)

func exerciseOf(labels []string) int {
	for _, l := range labels {
		if m := exerciseLabel.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

// Exercise gathers the specs of one exercise.
type Exercise struct {
	Number        int
	Title         string // the exercise's top-level Describe, e.g. "Exercise 1: ParseGVK"
	Passed, Total int
	FirstFailure  Spec
}

// Done is true when every spec of the exercise passed.
func (e Exercise) Done() bool { return e.Total > 0 && e.Passed == e.Total }

// Exercises groups the specs by exercise, in exercise order; specs with no label are group 0.
func (res Result) Exercises() []Exercise {
	byNumber := map[int]*Exercise{}
	for _, s := range res.Specs {
		e, ok := byNumber[s.Exercise]
		if !ok {
			e = &Exercise{Number: s.Exercise, Title: s.Container}
			byNumber[s.Exercise] = e
		}
		e.Total++
		if s.Passed {
			e.Passed++
		} else if e.FirstFailure.Text == "" {
			e.FirstFailure = s
		}
	}
	var list []Exercise
	for _, e := range byNumber {
		list = append(list, *e)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Number < list[j].Number })
	return list
}

// briefMax is how long a one-line failure summary may grow: enough for a custom message and
// both values of a comparison, short enough for one line of a terminal or the board.
const briefMax = 240

// briefly turns a Gomega failure message into one line: the lines joined, values without their
// type annotations, a multi-line struct dump (an error's, most often) shown as {…}, and the
// whole cut at briefMax runes. Cutting by length instead of by lines keeps "Expected X to equal
// Y" whole: the values are what a learner needs.
func briefly(msg string) string {
	var kept, dump []string
	depth := 0 // how deep inside a multi-line dump the line is
	for _, line := range strings.Split(msg, "\n") {
		line = withoutTypeAnnotation(strings.TrimSpace(line))
		switch {
		case depth > 0:
			depth += strings.Count(line, "{") - strings.Count(line, "}")
			if dump = append(dump, line); depth == 0 {
				kept = append(kept, fold(dump))
			}
			continue
		case strings.HasPrefix(line, "{") && strings.Count(line, "{") > strings.Count(line, "}"):
			depth = strings.Count(line, "{") - strings.Count(line, "}")
			dump = []string{line}
			continue
		case line == "":
			continue
		}
		kept = append(kept, line)
	}
	if depth > 0 { // a dump cut short
		kept = append(kept, fold(dump))
	}
	joined := strings.Join(kept, " ")
	if r := []rune(joined); len(r) > briefMax {
		joined = string(r[:briefMax-1]) + "…"
	}
	return joined
}

// dumpMax is how long a dump may be and still show in a summary: a small map ({"app": "web"})
// is the value a learner needs; a struct's dump (an error's, most often) is noise.
const dumpMax = 100

// fold is a multi-line dump on one line when it is short, else {…}.
func fold(dump []string) string {
	line := strings.Join(dump, " ")
	if len([]rune(line)) > dumpMax {
		return "{…}"
	}
	return line
}

// innerAnnotation is a type annotation inside a dump's line: `<string>"team"`.
var innerAnnotation = regexp.MustCompile(`<[^<>\s]+>(["\d])`)

// withoutTypeAnnotation turns Gomega's `<string>: /api/v1` into `/api/v1`, and `<string>"a"`
// inside a line into `"a"`; a line that is only an annotation becomes empty.
func withoutTypeAnnotation(line string) string {
	line = innerAnnotation.ReplaceAllString(line, "$1")
	if !strings.HasPrefix(line, "<") {
		return line
	}
	if end := strings.Index(line, ">: "); end >= 0 {
		return strings.TrimSpace(line[end+3:])
	}
	if strings.HasSuffix(line, ">:") || strings.HasSuffix(line, ">") {
		return ""
	}
	return line
}

// OverlayEnv names the environment variable that tells a lesson's specs which -overlay file
// their binary was built with (unset: the learner's own files). Specs that build or read the
// learner's project themselves (lesson 11 builds cmd/main.go and reads the manifests it
// generated) use the same overlay, so they see the code the rest of the binary was built from.
const OverlayEnv = project.OverlayEnv

// env is the specs' environment: this process's, r.Env, the overlay's absolute path when there
// is one, and the kubectl the lesson's programs need when its lesson.yaml says so (found, or
// built, here: a spec binary never holds the cluster's builder).
func (r Run) env(ctx context.Context) ([]string, error) {
	env := append(os.Environ(), r.Env...)
	if r.OverlayFile != "" {
		abs, err := filepath.Abs(r.OverlayFile)
		if err != nil {
			return nil, err
		}
		env = append(env, OverlayEnv+"="+abs)
	}
	programs, err := ProgramsEnv(ctx, r.Lesson, r.Output)
	return append(env, programs...), err
}

// ProgramsEnv is what the tools add to the environment of any run of a lesson's specs (make
// check, make test, make ginkgo): the kubectl its lesson.yaml says the specs hand to a program,
// found or built here (progress to out, if not nil), so a spec binary never holds the cluster's
// builder.
func ProgramsEnv(ctx context.Context, l lessons.Lesson, out io.Writer) ([]string, error) {
	if !l.Manifest.Kubectl {
		return nil, nil
	}
	if out == nil {
		out = io.Discard
	}
	kubectl, err := binaries.Kubectl(ctx, l.Root(), out)
	if err != nil {
		return nil, fmt.Errorf("lesson %s's specs need a kubectl: %w", l.Number, err)
	}
	return []string{project.KubectlEnv + "=" + kubectl}, nil
}
