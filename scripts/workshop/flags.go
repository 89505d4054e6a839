package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"workshop.local/scripts/internal/cluster"
	"workshop.local/scripts/internal/learner"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/say"
	"workshop.local/scripts/workspace"
)

// envAnnotation names, on a flag, the environment variable (a make variable) that gives its value
// when the flag is not set.
const envAnnotation = "workshop/env"

// stringFlag declares a string flag that falls back to the environment variable env.
func stringFlag(cmd *cobra.Command, p *string, name, env, usage string) {
	cmd.Flags().StringVar(p, name, "", usage+" ("+env+"=)")
	_ = cmd.Flags().SetAnnotation(name, envAnnotation, []string{env})
}

// boolFlag declares a bool flag that falls back to the environment variable env (set, and not
// 0 or false, means true: make's VERBOSE=1, FORCE=1).
func boolFlag(cmd *cobra.Command, p *bool, name, env, usage string) {
	cmd.Flags().BoolVar(p, name, false, usage+" ("+env+"=1)")
	_ = cmd.Flags().SetAnnotation(name, envAnnotation, []string{env})
}

// applyEnvDefaults gives every flag that was not set on the command line the value of its
// environment variable, if that is set: the one place make's variables become the tool's flags.
func applyEnvDefaults(cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		env := f.Annotations[envAnnotation]
		if f.Changed || len(env) == 0 || err != nil {
			return
		}
		value, ok := os.LookupEnv(env[0])
		if !ok || value == "" {
			return
		}
		if f.Value.Type() == "bool" {
			value = strconv.FormatBool(value != "0" && !strings.EqualFold(value, "false"))
		}
		if e := f.Value.Set(value); e != nil {
			err = fmt.Errorf("%s=%q: %v", env[0], value, e)
		}
	})
	return err
}

// clusterRuntime is CLUSTER, the runtime the workshop cluster should have (auto, kind or
// local): a persistent flag of the tool, read once here and passed to the cluster and the
// doctor, so that every command that starts or reports on the cluster reads the same value.
var clusterRuntime string

// bindCluster declares --cluster on the root, for every command below it.
func bindCluster(root *cobra.Command) {
	root.PersistentFlags().StringVar(&clusterRuntime, "cluster", "", "the cluster's runtime: auto, kind or local (CLUSTER=)")
	_ = root.PersistentFlags().SetAnnotation("cluster", envAnnotation, []string{"CLUSTER"})
}

// validFlags checks the values every command shares, once their environment fallbacks are in.
func validFlags() error { return cluster.Valid(clusterRuntime) }

// target is the lesson and exercise a command works on: --lesson and --exercise, or the
// arguments [LESSON] [EXERCISE], or LESSON and EXERCISE from the environment (make's variables).
type target struct {
	lesson, exercise string
}

// bindTarget declares the flags; withExercise says whether the command takes an exercise.
func bindTarget(cmd *cobra.Command, t *target, withExercise bool) {
	stringFlag(cmd, &t.lesson, "lesson", "LESSON", "the lesson: 01, 1 or 01-gvk-gvr")
	_ = cmd.RegisterFlagCompletionFunc("lesson", completeLessons)
	cmd.Use += " [LESSON]"
	max := 1
	if withExercise {
		stringFlag(cmd, &t.exercise, "exercise", "EXERCISE", "one exercise of the lesson, by number (default: as the command says)")
		cmd.Use += " [EXERCISE]"
		max = 2
	}
	cmd.Args = cobra.MaximumNArgs(max)
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return completeLessons(nil, nil, "")
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// resolved is a target checked against the workspace: a lesson that exists and, when one was
// named, an exercise it has (0: none named).
type resolved struct {
	root     string
	lesson   lessons.Lesson
	exercise int
}

// resolve validates the target, taking positional arguments before flags and the environment.
func (t target) resolve(cmd *cobra.Command, args []string, needLesson bool) (resolved, error) {
	if len(args) > 0 {
		t.lesson = args[0]
	}
	if len(args) > 1 {
		t.exercise = args[1]
	}
	root, err := workspace.Root()
	if err != nil {
		return resolved{}, err
	}
	r := resolved{root: root}
	if t.lesson == "" {
		if needLesson {
			return r, say.Errorf("which lesson? make %s LESSON=01 (or run it inside lessons/NN-topic/)", makeTarget(cmd))
		}
		return r, nil
	}
	if r.lesson, err = lessons.Find(root, t.lesson); err != nil {
		return r, err
	}
	r.exercise, err = validExercise(r.lesson, t.exercise)
	return r, err
}

// makeAnnotation names, on a command, the make target that runs it: make help lists the command
// under that name, and messages tell learners to type it.
const makeAnnotation = "workshop/make"

// makeTarget is the make target of cmd ("check"), or its name when it has none.
func makeTarget(cmd *cobra.Command) string {
	if t := cmd.Annotations[makeAnnotation]; t != "" {
		return t
	}
	return cmd.Name()
}

// asMake marks cmd as run by `make target` and returns it.
func asMake(cmd *cobra.Command, target string) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[makeAnnotation] = target
	return cmd
}

// validExercise is the exercise number named by s, if the lesson has it ("" is 0: none named).
func validExercise(l lessons.Lesson, s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, say.Errorf("EXERCISE=%q is not an exercise number: use EXERCISE=1, 2, ...", s)
	}
	list, err := learner.ReadExercises(l.Dir)
	if err != nil {
		return 0, err
	}
	for _, e := range list {
		if e.Number == n {
			return n, nil
		}
	}
	return 0, say.Errorf("lesson %s has no exercise %d: its exercises are 1 to %d", l.Number, n, len(list))
}

// completeLessons offers the lessons' numbers and names to shell completion.
func completeLessons(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	root, err := workspace.Root()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	all, _ := lessons.Discover(root)
	var names []string
	for _, l := range all {
		names = append(names, l.Number+"\t"+strings.TrimPrefix(l.Name, l.Number+"-"))
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// lessonCommand is a command that works on a lesson (and, withExercise, one of its exercises):
// Use, Short and the make target are as given; the target is resolved (and, needLesson, refused
// without a lesson) before run, and the cluster started first when needsCluster.
type lessonCommand struct {
	use, short, make                       string
	withExercise, needLesson, needsCluster bool
	run                                    func(cmd *cobra.Command, r resolved) (bool, error)
}

// command builds the cobra command; flags is for the command's own extra flags.
func (lc lessonCommand) command(flags func(*cobra.Command)) *cobra.Command {
	var t target
	cmd := &cobra.Command{
		Use:   lc.use,
		Short: lc.short,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := t.resolve(cmd, args, lc.needLesson)
			if err != nil {
				return err
			}
			if lc.needsCluster {
				if err := ensureCluster(cmd.Context()); err != nil {
					return err
				}
			}
			return verdict(lc.run(cmd, r))
		},
	}
	bindTarget(cmd, &t, lc.withExercise)
	if flags != nil {
		flags(cmd)
	}
	return asMake(cmd, lc.make)
}

// scratch is where the tools keep builds, logs and overlays: .cache/check (git ignores it).
func scratch(root string) string { return filepath.Join(root, ".cache", "check") }
