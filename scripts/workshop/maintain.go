package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/generated"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/proof"
)

// maintainCommands are the workshop's own proofs and chores: test, test-wrong, mistakes,
// generate, l10n-diff, ginkgo, pins, bench-cluster.
func maintainCommands() []*cobra.Command {
	return []*cobra.Command{testCommand(), testWrongCommand(), signaturesCommand(), wrongEditCommand(), wrongSaveCommand(), mistakesCommand(), sumsCommand(), generateCommand(), l10nDiffCommand(),
		ginkgoCommand(), overlayCommand(), scriptCommand("pins", "Apply scripts/versions/versions.env (the one place versions are pinned) to every go.mod", "pins.sh"),
		scriptCommand("bench-cluster", "Measure build, start, stop and memory of the local cluster (writes docs/benchmarks.md)", "bench-cluster.sh")}
}

func testCommand() *cobra.Command {
	return lessonCommand{
		// Not needsCluster: the static checks run while proof.Test starts the cluster.
		use: "test", make: "test",
		short: "The project's tests: tooling; every solution passes, every starter fails, every wrong solution is caught",
		run: func(cmd *cobra.Command, r resolved) (bool, error) {
			return proof.Test(cmd.Context(), r.root, scratch(r.root), r.lesson.Name, ensureCluster)
		},
	}.command(func(cmd *cobra.Command) {
		cmd.Long = "test proves the whole workshop (or, with a lesson, the static checks, the tooling and that\n" +
			"lesson) and ends with \"N passed, N failed\"."
	})
}

func testWrongCommand() *cobra.Command {
	var only string
	var quick bool
	return lessonCommand{
		use: "test-wrong", make: "test-wrong", needLesson: true, needsCluster: true,
		short: "Prove a lesson's wrong solutions are caught (WRONG=name for one); says which spec caught each",
		run: func(cmd *cobra.Command, r resolved) (bool, error) {
			return proof.Wrong(cmd.Context(), scratch(r.root), r.lesson, only, quick)
		},
	}.command(func(cmd *cobra.Command) {
		stringFlag(cmd, &only, "wrong", "WRONG", "one wrong solution, by name")
		boolFlag(cmd, &quick, "quick", "QUICK", "as make test does: the spec in wrong/caught-by.tsv first, and stop at the first failing spec")
	})
}

func signaturesCommand() *cobra.Command {
	return lessonCommand{
		use: "signatures", make: "signatures", needLesson: true, needsCluster: true,
		short: "Measure which specs each wrong solution of a lesson fails (twice), into wrong/signatures.json",
		run: func(cmd *cobra.Command, r resolved) (bool, error) {
			return proof.Signatures(cmd.Context(), scratch(r.root), r.lesson)
		},
	}.command(nil)
}

func mistakesCommand() *cobra.Command {
	return asMake(&cobra.Command{
		Use:   "mistakes",
		Short: "Write docs/mistakes.md and its Chinese, the instructors' list of common mistakes, from the wrong solutions",
		Args:  cobra.NoArgs,
		RunE: rooted(func(_ *cobra.Command, root string) (bool, error) {
			ok, err := proof.WriteMistakes(root)
			if err != nil {
				return ok, err
			}
			return ok, proof.MatcherReport(root)
		}),
	}, "mistakes")
}

func sumsCommand() *cobra.Command {
	return asMake(&cobra.Command{
		Use:   "sums",
		Short: "Write lessons/specs.sha256, the specs and support files as shipped, which make check compares against",
		Args:  cobra.NoArgs,
		RunE: rooted(func(_ *cobra.Command, root string) (bool, error) {
			return proof.WriteSums(root)
		}),
	}, "sums")
}

func generateCommand() *cobra.Command {
	return lessonCommand{
		use: "generate", make: "generate", needLesson: true,
		short: "Regenerate what a lesson's code generates (10: deepcopy and CRD, controller-gen; 14: typed clients, code-generator)",
		run: func(cmd *cobra.Command, r resolved) (bool, error) {
			if !r.lesson.Generates() {
				return false, fmt.Errorf("lesson %s generates nothing (its %s declares no generate)", r.lesson.Number, lessons.ManifestFile)
			}
			return true, generated.Run(cmd.Context(), r.lesson, r.lesson.Dir, r.lesson.Dir, false)
		},
	}.command(nil)
}

func ginkgoCommand() *cobra.Command {
	var t target
	var solution bool
	cmd := &cobra.Command{
		Use:   "ginkgo -- [GINKGO ARGS]",
		Short: "Run Ginkgo's CLI (the pinned version) on a lesson, e.g. ARGS=\"-p --randomize-all\"",
		Long: "ginkgo runs the pinned Ginkgo CLI in the lesson's folder (go run: nothing to install). With\n" +
			"--solution (make ginkgo SOLUTION=1) the reference solution is overlaid on your files, which are\n" +
			"not touched.",
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := t.resolve(cmd, nil, true)
			if err != nil {
				return err
			}
			return runGinkgo(cmd, r, solution, args)
		},
	}
	stringFlag(cmd, &t.lesson, "lesson", "LESSON", "the lesson: 01, 1 or 01-gvk-gvr")
	_ = cmd.RegisterFlagCompletionFunc("lesson", completeLessons)
	boolFlag(cmd, &solution, "solution", "SOLUTION", "overlay the reference solution")
	return asMake(cmd, "ginkgo")
}

func overlayCommand() *cobra.Command {
	cmd := lessonCommand{
		use: "overlay", needLesson: true,
		short: "Write a lesson's solution overlay and print its path, for go test -overlay=PATH",
		run: func(_ *cobra.Command, r resolved) (bool, error) {
			path, err := r.lesson.WriteOverlayFile(scratch(r.root))
			if err == nil {
				fmt.Println(path)
			}
			return err == nil, err
		},
	}.command(nil)
	delete(cmd.Annotations, makeAnnotation) // no make target: a helper for go test by hand
	return cmd
}

// runGinkgo runs `go run github.com/onsi/ginkgo/v2/ginkgo args .` in the lesson's folder.
func runGinkgo(cmd *cobra.Command, r resolved, solution bool, args []string) error {
	ginkgo := append([]string{"run", "github.com/onsi/ginkgo/v2/ginkgo"}, r.lesson.TestFlags()...)
	run := exec.CommandContext(cmd.Context(), "go", append(append(ginkgo, args...), ".")...)
	programs, err := specrun.ProgramsEnv(cmd.Context(), r.lesson, os.Stderr)
	if err != nil {
		return err
	}
	run.Dir, run.Env = r.lesson.Dir, append(os.Environ(), programs...)
	run.Stdin, run.Stdout, run.Stderr = os.Stdin, os.Stdout, os.Stderr
	if solution {
		overlay, err := r.lesson.WriteOverlayFile(scratch(r.root))
		if err != nil {
			return err
		}
		run.Env = append(run.Env, "GOFLAGS=-overlay="+overlay, specrun.OverlayEnv+"="+overlay)
	}
	var exit *exec.ExitError
	if err := run.Run(); errors.As(err, &exit) {
		return errVerdict // Ginkgo printed why
	} else if err != nil {
		return err
	}
	return nil
}

// scriptCommand runs one of scripts/*.sh from the workspace's root.
func scriptCommand(name, short, script string) *cobra.Command {
	return asMake(&cobra.Command{
		Use: name, Short: short, Args: cobra.NoArgs,
		RunE: rooted(func(cmd *cobra.Command, root string) (bool, error) {
			run := exec.CommandContext(cmd.Context(), filepath.Join(root, "scripts", script))
			run.Dir, run.Stdin, run.Stdout, run.Stderr = root, os.Stdin, os.Stdout, os.Stderr
			var exit *exec.ExitError
			if err := run.Run(); errors.As(err, &exit) {
				return false, nil
			} else if err != nil {
				return false, err
			}
			return true, nil
		}),
	}, name)
}
