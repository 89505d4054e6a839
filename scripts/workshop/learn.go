package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"workshop.local/scripts/internal/cluster"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/generated"
	"workshop.local/scripts/internal/loop"
	"workshop.local/scripts/internal/ownspecs"
)

// learnCommands are the learner's loop: check, watch, hint, progress, reset, solution, specs,
// scaffold.
func learnCommands() []*cobra.Command {
	return []*cobra.Command{checkCommand(), watchCommand(), hintCommand(), progressCommand(),
		resetCommand(), solutionCommand(), specsCommand(), scaffoldCommand()}
}

// ensureCluster starts the workshop cluster unless it runs (one line when it does).
// WORKSHOP_RUNNING_CLUSTER=1 leaves the cluster as it is: a test or a benchmark that runs the
// tool from a scratch copy of the workspace against the real workspace's cluster
// (WORKSHOP_CLUSTER_DIR) must never start, restart or stop it, and that copy's cluster programs
// would not even be the ones running (their names carry a hash of the workspace's sources).
func ensureCluster(ctx context.Context) error {
	if os.Getenv("WORKSHOP_RUNNING_CLUSTER") == "1" {
		return nil
	}
	c, err := cluster.Open(os.Stdout, clusterRuntime)
	if err != nil {
		return err
	}
	if err := c.Ensure(ctx); err != nil {
		return err
	}
	fmt.Println()
	return nil
}

func checkCommand() *cobra.Command {
	var verbose bool
	return lessonCommand{
		use: "check", make: "check", withExercise: true, needLesson: true, needsCluster: true,
		short: "Check a lesson (or one exercise) against the workshop cluster; starts the cluster if needed",
		run: func(cmd *cobra.Command, r resolved) (bool, error) {
			return loop.Check(cmd.Context(), r.root, scratch(r.root), r.lesson, r.exercise, verbose)
		},
	}.command(func(cmd *cobra.Command) {
		cmd.Long = "check runs a lesson's specs against your code on the workshop cluster: the first exercise\n" +
			"that fails in full, the others one line per spec, then what to do next."
		boolFlag(cmd, &verbose, "verbose", "VERBOSE", "show Ginkgo's whole output")
	})
}

func watchCommand() *cobra.Command {
	return lessonCommand{
		use: "watch", make: "watch", withExercise: true, needLesson: true, needsCluster: true,
		short: "Re-check the current exercise on every save; keys: h hint, l list, a all, r reset, n next, q quit",
		run: func(cmd *cobra.Command, r resolved) (bool, error) {
			return loop.Watch(cmd.Context(), r.root, scratch(r.root), r.lesson, r.exercise)
		},
	}.command(nil)
}

func hintCommand() *cobra.Command {
	return lessonCommand{
		use: "hint", make: "hint", withExercise: true, needLesson: true,
		short: "Show the next hint level of an exercise (default: the first that has not passed)",
		run: func(_ *cobra.Command, r resolved) (bool, error) {
			return loop.Hint(os.Stdout, r.root, r.lesson, r.exercise)
		},
	}.command(nil)
}

func progressCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "progress",
		Short: "Every lesson and exercise: passed, failing, hints used, what to do next",
		Args:  cobra.NoArgs,
		RunE: rooted(func(_ *cobra.Command, root string) (bool, error) {
			return loop.Progress(os.Stdout, root, asJSON)
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON, for tools (make progress ARGS=--json)")
	return asMake(cmd, "progress")
}

func resetCommand() *cobra.Command {
	return lessonCommand{
		use: "reset", make: "reset", withExercise: true, needLesson: true,
		short: "Put an exercise's starter back from git, your version backed up first (no exercise: the lesson, after asking)",
		run: func(_ *cobra.Command, r resolved) (bool, error) {
			return loop.Reset(os.Stdout, os.Stdin, r.root, r.lesson, r.exercise)
		},
	}.command(nil)
}

func solutionCommand() *cobra.Command {
	var force bool
	return lessonCommand{
		use: "solution", make: "solution", withExercise: true, needLesson: true,
		short: "Show the reference solution of an exercise as a diff, once it passes",
		run: func(_ *cobra.Command, r resolved) (bool, error) {
			return loop.Solution(os.Stdout, r.root, r.lesson, r.exercise, force)
		},
	}.command(func(cmd *cobra.Command) {
		boolFlag(cmd, &force, "force", "FORCE", "show it before the exercise passes (your progress records it)")
	})
}

func specsCommand() *cobra.Command {
	var file string
	return lessonCommand{
		use: "specs", make: "specs", needLesson: true, needsCluster: true,
		short: "Prove your own specs (lessons 10 and 11): which broken operators they catch",
		run: func(cmd *cobra.Command, r resolved) (bool, error) {
			return ownspecs.Prove(cmd.Context(), scratch(r.root), r.lesson, file)
		},
	}.command(func(cmd *cobra.Command) {
		stringFlag(cmd, &file, "file", "FILE", "the spec file to prove (default: the lesson's own-specs file, e.g. my_specs_test.go)")
	})
}

// scaffoldCommand is make scaffold (lesson 11): the pinned CLI's commands, as the lesson's README
// gives them, run into a scratch folder of the workspace, never into the lesson, so a learner
// sees what the CLI writes and compares it with the project without risking an edited file.
func scaffoldCommand() *cobra.Command {
	return lessonCommand{
		use: "scaffold", make: "scaffold", needLesson: true,
		short: "Run a scaffolded lesson's CLI (11: kubebuilder init, create api) into .cache/scaffold/, to compare with the lesson",
		run: func(cmd *cobra.Command, r resolved) (bool, error) {
			l := r.lesson
			if !l.Scaffolded() {
				return false, fmt.Errorf("lesson %s is not a scaffolded project: only lesson 11 is (make scaffold LESSON=11)", l.Number)
			}
			dir := filepath.Join(r.root, ".cache", "scaffold", l.Name)
			fmt.Printf("Running the pinned %s in %s:\n", lessons.ToolName(l.Manifest.Scaffold.Tool), dir)
			for i, c := range l.Manifest.Scaffold.Commands {
				if i < len(l.Manifest.Scaffold.Check) {
					c = append(slices.Clone(c), l.Manifest.Scaffold.Check[i]...)
				}
				fmt.Printf("  %s %s\n", lessons.ToolName(l.Manifest.Scaffold.Tool), strings.Join(c, " "))
			}
			if err := generated.Scaffold(cmd.Context(), l, dir, nil); err != nil {
				return false, err
			}
			rel, _ := filepath.Rel(r.root, l.Dir)
			fmt.Printf("\nDone: that is what the CLI writes (the lesson's README says why each argument). Compare it\n"+
				"with your project, from the workspace root:\n  diff -r -x bin %s %s\n", filepath.Join(".cache", "scaffold", l.Name), rel)
			return true, nil
		},
	}.command(nil)
}
