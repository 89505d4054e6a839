package proof

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/lessons/generated"
)

// staticChecks: formatting, go vet of every module, no deprecated API anywhere, generated files
// current, and translations in step with their English.
func (t *tester) staticChecks() []check {
	return []check{
		{"gofmt", t.gofmt},
		{"go vet, every module", t.vetModules},
		{"no deprecated API in lessons, solutions, harness and tools", t.noDeprecatedAPI},
		{"every lesson's exercises are its README's, each with a TODO marker", t.exercisesAgree},
		{"every wrong solution and broken operator applies to its reference solution", t.patchesApply},
		{"docs/mistakes.md lists every wrong solution", t.mistakesCurrent},
		{"wrong solutions' signatures were measured on the specs as they are", t.signaturesCurrent},
		{"lessons/specs.sha256 lists every spec and support file as shipped", t.sumsCurrent},
		{"translations (zh-CN) match their English: current, same structure, glossary terms", t.translationsCurrent},
		{"generated files (make generate) are current, for starters and solutions", t.generatedCurrent},
		{"scaffolded lessons are what their pinned CLI makes", t.scaffoldsCurrent},
	}
}

// exercisesAgree compares, for every lesson, the exercises its README introduces with the TODO
// markers in its learner files (lessons.CheckExercises).
func (t *tester) exercisesAgree(context.Context) (string, error) {
	var problems []string
	n := 0
	for _, l := range t.lessons {
		problems = append(problems, l.CheckExercises()...)
		n += len(l.Exercises)
	}
	if len(problems) > 0 {
		return "", errors.New(strings.Join(problems, "\n"))
	}
	return fmt.Sprintf("%d exercises in %d lessons", n, len(t.lessons)), nil
}

// scaffoldsCurrent runs each scaffolded lesson's CLI again (lesson 11: kubebuilder init and
// create api, as its README gives them) and lists every file that differs from the lesson's.
func (t *tester) scaffoldsCurrent(ctx context.Context) (string, error) {
	var drift, names []string
	for _, l := range t.lessons {
		if !l.Scaffolded() {
			continue
		}
		names = append(names, l.Name)
		found, err := generated.ScaffoldDrift(ctx, l, t.scratch)
		if err != nil {
			return "", err
		}
		drift = append(drift, found...)
	}
	if len(drift) > 0 {
		return "", errors.New(strings.Join(drift, "\n"))
	}
	if len(names) == 0 {
		return "no lesson is scaffolded", nil
	}
	return strings.Join(names, ", ") + ": every file as the pinned CLI writes it, the learner's and the workshop's aside", nil
}

// generatedCurrent regenerates, in scratch, what each lesson with a `make generate` generates
// from its starter and from its solution, and lists every committed file that differs.
func (t *tester) generatedCurrent(ctx context.Context) (string, error) {
	var stale []string
	n := 0
	for _, l := range t.lessons {
		if !l.Generates() {
			continue
		}
		n++
		found, err := generated.Stale(ctx, l, t.scratch)
		if err != nil {
			return "", err
		}
		stale = append(stale, found...)
	}
	if len(stale) > 0 {
		return "", errors.New(strings.Join(stale, "\n"))
	}
	return fmt.Sprintf("%d lessons generate; every generated file is current", n), nil
}

func (t *tester) gofmt(ctx context.Context) (string, error) {
	out, err := command(ctx, t.root, "gofmt", "-l", "lessons", "solutions", "scripts")
	if err != nil {
		return "", err
	}
	if files := strings.TrimSpace(out); files != "" {
		return "", fmt.Errorf("not gofmt'd (run gofmt -w on them):\n%s", files)
	}
	return "all Go files formatted", nil
}

// vetModules runs go vet in every workspace module, and in every lesson again with its
// solution overlaid, so both the starter and the solution are vet-clean.
func (t *tester) vetModules(ctx context.Context) (string, error) {
	dirs := map[string][]string{filepath.Join(t.root, "scripts"): nil, filepath.Join(t.root, "lessons", "internal"): nil}
	for _, l := range t.lessons {
		dirs[l.Dir] = l.TagFlags() // the spec files of a lesson with build tags need them
	}
	var problems []string
	for dir, tags := range dirs {
		if out, err := command(ctx, dir, "go", append(append([]string{"vet"}, tags...), "./...")...); err != nil {
			problems = append(problems, out)
		}
	}
	for _, l := range t.lessons {
		overlay, err := l.WriteOverlayFile(t.scratch)
		if err != nil {
			return "", err
		}
		args := append(append([]string{"vet"}, l.TagFlags()...), "-overlay="+overlay, "./...")
		if out, err := command(ctx, l.Dir, "go", args...); err != nil {
			problems = append(problems, "with the solution of "+l.Name+":\n"+out)
		}
	}
	if len(problems) > 0 {
		return "", errors.New(strings.Join(problems, "\n"))
	}
	return fmt.Sprintf("%d modules, %d solutions", len(dirs), len(t.lessons)), nil
}

// noDeprecatedAPI runs staticcheck's SA1019 over the tools, the harness and the starters, then
// again with every solution overlaid.
func (t *tester) noDeprecatedAPI(ctx context.Context) (string, error) {
	patterns := []string{"./scripts/...", "./lessons/internal/..."}
	overlay := map[string]string{}
	var tags []string
	for _, l := range t.lessons {
		patterns = append(patterns, "./lessons/"+l.Name+"/...")
		tags = append(tags, l.Manifest.Tags...)
		o, err := l.SolutionOverlay()
		if err != nil {
			return "", err
		}
		maps.Copy(overlay, o)
	}
	var flags []string
	if len(tags) > 0 {
		flags = []string{"-tags=" + strings.Join(tags, ",")}
	}
	starter, err := deprecatedUses(t.root, patterns, nil, flags...)
	if err != nil {
		return "", err
	}
	solution, err := deprecatedUses(t.root, patterns, overlay, flags...)
	if err != nil {
		return "", err
	}
	if found := append(starter, solution...); len(found) > 0 {
		return "", fmt.Errorf("deprecated API in use (teach today's API):\n%s", strings.Join(found, "\n"))
	}
	return "staticcheck SA1019 finds nothing", nil
}

// command runs name in dir and returns its combined output.
func command(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}
