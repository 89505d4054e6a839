package proof

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/lessons"
)

// staticChecks: formatting, go vet of every module, and no deprecated API anywhere.
func (t *tester) staticChecks() []check {
	return []check{
		{"gofmt", t.gofmt},
		{"go vet, every module", t.vetModules},
		{"no deprecated API in lessons, solutions, harness and tools", t.noDeprecatedAPI},
		{"docs/mistakes.md lists every wrong solution", t.mistakesCurrent},
		{"lessons/specs.sha256 lists every spec and support file as shipped", t.sumsCurrent},
		{"generated files (make generate) are current, for starters and solutions", t.generatedCurrent},
	}
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
		found, err := l.StaleGenerated(ctx, t.scratch)
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
	dirs := []string{filepath.Join(t.root, "scripts"), filepath.Join(t.root, "lessons", "internal")}
	for _, l := range t.lessons {
		dirs = append(dirs, l.Dir)
	}
	var problems []string
	for _, dir := range dirs {
		if out, err := command(ctx, dir, "go", "vet", "./..."); err != nil {
			problems = append(problems, out)
		}
	}
	for _, l := range t.lessons {
		overlay, err := l.WriteOverlayFile(t.scratch)
		if err != nil {
			return "", err
		}
		if out, err := command(ctx, l.Dir, "go", "vet", "-overlay="+overlay, "./..."); err != nil {
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
	for _, l := range t.lessons {
		patterns = append(patterns, "./lessons/"+l.Name+"/...")
		o, err := l.SolutionOverlay()
		if err != nil {
			return "", err
		}
		maps.Copy(overlay, o)
	}
	starter, err := lessons.DeprecatedUses(t.root, patterns, nil)
	if err != nil {
		return "", err
	}
	solution, err := lessons.DeprecatedUses(t.root, patterns, overlay)
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
