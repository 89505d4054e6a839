package proof

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// lessonUnitTests runs the plain Go tests of the lessons' support packages: every package of a
// lesson that has tests, except the lesson's own package, whose specs need the cluster and run
// as the lesson's checks. They prove what no cluster here can show (lesson 12's choice of
// address and certificate for kind).
func (t *tester) lessonUnitTests(ctx context.Context) (string, error) {
	pkgs, err := t.lessonTestPackages(ctx)
	if err != nil || len(pkgs) == 0 {
		return "no lesson has tests beside its specs", err
	}
	out, err := command(ctx, t.root, "go", append([]string{"test", "-count=1"}, pkgs...)...)
	if err != nil {
		return "", fmt.Errorf("go test of the lessons' support packages failed:\n%s", goTestFailures(out, 40))
	}
	return summarizeGoTest(out), nil
}

// lessonTestPackages lists the lessons' packages with tests, the lessons' own packages and the
// packages of learner files left out (lesson 11's internal/controller holds the learner's own
// envtest suite, an exercise).
func (t *tester) lessonTestPackages(ctx context.Context) ([]string, error) {
	args := []string{"list", "-f", "{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}"}
	roots := map[string]bool{}
	for _, l := range t.lessons {
		rel, err := filepath.Rel(t.root, l.Dir)
		if err != nil {
			return nil, err
		}
		args = append(args, "./"+filepath.ToSlash(rel)+"/...")
		roots["workshop.local/lessons/"+l.Name] = true
		files, err := l.EditableFiles()
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			roots[path.Join("workshop.local/lessons/"+l.Name, path.Dir(filepath.ToSlash(f)))] = true
		}
	}
	out, err := command(ctx, t.root, "go", args...)
	if err != nil {
		return nil, fmt.Errorf("go list of the lessons' packages: %v\n%s", err, out)
	}
	var pkgs []string
	for _, p := range strings.Fields(out) {
		if !roots[p] {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, nil
}
