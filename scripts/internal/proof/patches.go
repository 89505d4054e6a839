package proof

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/variants"
)

// patchesApply is the static check that every patch of every lesson, wrong solutions and broken
// operators alike, is well-formed and applies to its reference solution. It runs with the static
// checks, while the cluster starts, so a reference edited without remaking its patches fails in
// seconds, naming the patch and git's words on the file and hunk, not after the build of the
// whole proof.
func (t *tester) patchesApply(context.Context) (string, error) {
	all, err := lessons.Discover(t.root) // every lesson's, even when make test proves one
	if err != nil {
		return "", err
	}
	scratch := filepath.Join(t.scratch, "patches")
	defer os.RemoveAll(scratch)
	n, problems, err := unappliable(all, t.root, scratch)
	if err != nil {
		return "", err
	}
	if len(problems) > 0 {
		return "", fmt.Errorf("%d of %d patches do not apply:\n%s", len(problems), n, strings.Join(problems, "\n"))
	}
	return fmt.Sprintf("%d patches apply", n), nil
}

// unappliable applies each patch of the lessons into scratch and lists, one a patch, those that
// are malformed or do not apply, each named by its path below root. n counts the patches.
func unappliable(all []lessons.Lesson, root, scratch string) (n int, problems []string, err error) {
	for _, l := range all {
		for _, kind := range []variants.PatchKind{variants.WrongKind, variants.BrokenKind} {
			list, err := variants.List(l, kind)
			if err != nil {
				return 0, nil, err
			}
			for _, p := range list {
				n++
				if _, err := variants.Apply(l, p, filepath.Join(scratch, l.Name, kind.Dir)); err != nil {
					problems = append(problems, patchName(root, l, p)+": "+err.Error())
				}
			}
		}
	}
	return n, problems, nil
}

// patchName is where the patch is, below root: solutions/NN-topic/<kind>/<name>.patch.
func patchName(root string, l lessons.Lesson, p variants.Patch) string {
	path := p.Path
	if path == "" { // a malformed entry: a folder, or a file not ending in .patch
		path = filepath.Join(variants.Dir(l, p.Kind), p.Name)
	}
	rel, _ := filepath.Rel(root, path)
	return filepath.ToSlash(rel)
}
