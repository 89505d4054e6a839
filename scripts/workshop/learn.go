package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"workshop.local/scripts/internal/cluster"
	"workshop.local/scripts/internal/loop"
	"workshop.local/scripts/internal/ownspecs"
)

// learnCommands are the learner's loop: check, watch, hint, progress, reset, solution, specs.
func learnCommands() []*cobra.Command {
	return []*cobra.Command{checkCommand(), watchCommand(), hintCommand(), progressCommand(),
		resetCommand(), solutionCommand(), specsCommand()}
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
	c, err := cluster.Open(os.Stdout)
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
	var t target
	var verbose bool
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Check a lesson (or one exercise) against the workshop cluster; starts the cluster if needed",
		Long: "check runs a lesson's specs against your code on the workshop cluster: the first exercise\n" +
			"that fails in full, the others one line per spec, then what to do next.",
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := t.resolve(cmd, args, true)
			if err != nil {
				return err
			}
			if err := ensureCluster(cmd.Context()); err != nil {
				return err
			}
			return verdict(loop.Check(cmd.Context(), r.root, scratch(r.root), r.lesson, r.exercise, verbose))
		},
	}
	bindTarget(cmd, &t, true)
	boolFlag(cmd, &verbose, "verbose", "VERBOSE", "show Ginkgo's whole output")
	return asMake(cmd, "check")
}

func watchCommand() *cobra.Command {
	var t target
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Re-check the current exercise on every save; keys: h hint, l list, a all, r reset, n next, q quit",
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := t.resolve(cmd, args, true)
			if err != nil {
				return err
			}
			if err := ensureCluster(cmd.Context()); err != nil {
				return err
			}
			return verdict(loop.Watch(cmd.Context(), r.root, scratch(r.root), r.lesson, r.exercise))
		},
	}
	bindTarget(cmd, &t, true)
	return asMake(cmd, "watch")
}

func hintCommand() *cobra.Command {
	var t target
	cmd := &cobra.Command{
		Use:   "hint",
		Short: "Show the next hint level of an exercise (default: the first that has not passed)",
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := t.resolve(cmd, args, true)
			if err != nil {
				return err
			}
			return verdict(loop.Hint(os.Stdout, r.root, r.lesson, r.exercise))
		},
	}
	bindTarget(cmd, &t, true)
	return asMake(cmd, "hint")
}

func progressCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "progress",
		Short: "Every lesson and exercise: passed, failing, hints used, what to do next",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := target{}.resolve(cmd, nil, false)
			if err != nil {
				return err
			}
			return verdict(loop.Progress(os.Stdout, r.root, asJSON))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON, for tools (make progress ARGS=--json)")
	return asMake(cmd, "progress")
}

func resetCommand() *cobra.Command {
	var t target
	cmd := &cobra.Command{
		Use:   "reset",
		Short: "Put an exercise's starter back from git, your version backed up first (no exercise: the lesson, after asking)",
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := t.resolve(cmd, args, true)
			if err != nil {
				return err
			}
			return verdict(loop.Reset(os.Stdout, os.Stdin, r.root, r.lesson, r.exercise))
		},
	}
	bindTarget(cmd, &t, true)
	return asMake(cmd, "reset")
}

func solutionCommand() *cobra.Command {
	var t target
	var force bool
	cmd := &cobra.Command{
		Use:   "solution",
		Short: "Show the reference solution of an exercise as a diff, once it passes",
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := t.resolve(cmd, args, true)
			if err != nil {
				return err
			}
			return verdict(loop.Solution(os.Stdout, r.root, r.lesson, r.exercise, force))
		},
	}
	bindTarget(cmd, &t, true)
	boolFlag(cmd, &force, "force", "FORCE", "show it before the exercise passes (your progress records it)")
	return asMake(cmd, "solution")
}

func specsCommand() *cobra.Command {
	var t target
	var file string
	cmd := &cobra.Command{
		Use:   "specs",
		Short: "Prove your own specs (lesson 10): which broken operators they catch",
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := t.resolve(cmd, args, true)
			if err != nil {
				return err
			}
			if err := ensureCluster(cmd.Context()); err != nil {
				return err
			}
			return verdict(ownspecs.Prove(cmd.Context(), scratch(r.root), r.lesson, file))
		},
	}
	bindTarget(cmd, &t, false)
	stringFlag(cmd, &file, "file", "FILE", "the spec file to prove (default: the lesson's, my_specs_test.go)")
	return asMake(cmd, "specs")
}
