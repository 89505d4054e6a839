package archdoc

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Imports lists, with `go list -e` run in dir (env added to the tool's own), each package the
// patterns match and the packages it imports directly. Only the non-test files count: a test's
// imports are not part of a package's design. A pattern that names no package adds nothing
// (Compare reports it).
func Imports(ctx context.Context, dir string, env []string, patterns []string) (map[string][]string, error) {
	args := append([]string{"list", "-e", "-f", "{{if not .Error}}{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{end}}"}, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, append(cmd.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s in %s: %w", strings.Join(patterns, " "), dir, err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if fields := strings.Fields(line); len(fields) > 0 {
			imports[fields[0]] = fields[1:]
		}
	}
	return imports, nil
}

// Patterns are every package pattern the legend names, for go list.
func (d Diagram) Patterns() []string {
	var all []string
	for _, patterns := range d.Packages {
		all = append(all, patterns...)
	}
	return all
}

// nodeOf is the node whose pattern names pkg most closely ("a/b/..." beats "a/..."), or "".
func (d Diagram) nodeOf(pkg string) string {
	best, bestLen := "", -1
	for node, patterns := range d.Packages {
		for _, p := range patterns {
			if matches(p, pkg) && len(p) > bestLen {
				best, bestLen = node, len(p)
			}
		}
	}
	return best
}

func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}
