package proof

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/lessoncopy"
	"workshop.local/scripts/internal/lessons/variants"
	"workshop.local/scripts/internal/subprocess"
	"workshop.local/scripts/workspace"
)

// namedMistakeCheck is make test's proof, end to end, that a learner who makes a known mistake
// is told so: in a scratch copy of the lesson whose files are the solution with a kept wrong
// solution applied (the first, by name, that its recorded signature names alone), the workshop
// tool runs `make check` on that exercise, which must say the failure matches a known mistake,
// then `make hint`, which must name it in its header's words.
func (t *tester) namedMistakeCheck(l lessons.Lesson) check {
	return check{"lesson " + l.Number + ": make check with a known mistake says so, and make hint names it", func(ctx context.Context) (string, error) {
		sigs, _, err := variants.ReadSignatures(l)
		if err != nil {
			return "", err
		}
		w, ok, err := firstNamed(l, sigs)
		if err != nil || !ok {
			return "no mistake of this lesson is named alone by its signature: nothing to prove", err
		}
		dir := filepath.Join(t.scratch, "named", l.Name)
		defer os.RemoveAll(dir)
		if err := learnerWithMistake(t.root, dir, l, w); err != nil {
			return "", err
		}
		exercise := fmt.Sprint(w.Exercise)
		check, err := runTool(ctx, t.root, dir, "check", "LESSON="+l.Number, "EXERCISE="+exercise)
		if err != nil {
			return "", err
		}
		if !strings.Contains(check, "matches a mistake learners often make") {
			return "", fmt.Errorf("with %s applied, make check did not say its failure matches a known mistake:\n%s", w.Name, check)
		}
		hint, err := runTool(ctx, t.root, dir, "hint", "LESSON="+l.Number, "EXERCISE="+exercise)
		if err != nil {
			return "", err
		}
		if !strings.Contains(hint, sentence(w.Summary)+".") || strings.Contains(hint, "Hint 1") {
			return "", fmt.Errorf("with %s applied, make hint did not name it (%q) before any hint level:\n%s", w.Name, w.Summary, hint)
		}
		return fmt.Sprintf("%s (exercise %d): make check says a known mistake matches, make hint names it", w.Name, w.Exercise), nil
	}}
}

// learnerWithMistake makes dir a workspace holding a copy of lesson l whose learner files are
// the reference solution's, but for the file w changes, which is the solution with w applied.
func learnerWithMistake(root, dir string, l lessons.Lesson, w variants.Patch) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	copied, err := lessoncopy.Make(root, dir, l)
	if err != nil {
		return err
	}
	overlay, err := variants.Overlay(l, w, filepath.Join(dir, "patched"))
	if err != nil {
		return err
	}
	for learnerFile, content := range overlay {
		rel, err := filepath.Rel(l.Dir, learnerFile)
		if err != nil {
			return err
		}
		if err := lessoncopy.CopyFile(content, filepath.Join(copied.Dir, rel)); err != nil {
			return err
		}
	}
	return nil
}

// workshopTool is the workshop tool's binary: the one running make test (a test sets another).
var workshopTool = os.Executable

// runTool runs this workshop tool in the scratch workspace dir, against the real workspace's
// cluster (which it must never start or stop), in English and without colour, and returns what
// it printed. It exits 1 on a failing exercise, as it should here: what it printed says the rest.
func runTool(ctx context.Context, root, dir string, args ...string) (string, error) {
	self, err := workshopTool()
	if err != nil {
		return "", err
	}
	clusterDir := workspace.ClusterDir(root)
	cmd := subprocess.Command(ctx, self, args[0]) // ended whole, its spec runs too, on an interrupt
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append(args[1:],
		"LESSONS_KUBECONFIG="+workspace.KubeconfigPath(clusterDir), "WORKSHOP_CLUSTER_DIR="+clusterDir,
		"WORKSHOP_RUNNING_CLUSTER=1", "NO_COLOR=1", "WORKSHOP_LANG=en")...)
	out, err := cmd.CombinedOutput()
	if _, exited := err.(*exec.ExitError); exited && ctx.Err() == nil {
		err = nil
	}
	if err != nil {
		return "", fmt.Errorf("workshop %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out), nil
}
