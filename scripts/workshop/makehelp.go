package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/workspace"
)

// makeHelpCommand is `make help`: the make targets of this command tree, grouped as the tree is,
// every make variable with what it means, and, inside a lesson folder, that lesson's own targets.
func makeHelpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:    "make-help",
		Short:  "Print make help: the targets of this tree, grouped, and every variable",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			printMakeHelp(os.Stdout, root, os.Getenv("LESSON"))
			return nil
		},
	}
}

// extraVariables are the make variables no flag of the tree declares, and the meaning of those
// that several commands' flags share.
var extraVariables = [][2]string{
	{"KIT", "the offline kit's archive: where make kit writes it, what make kit-install installs"},
	{"EXERCISE", "one exercise of the lesson, by number (check, watch, hint, reset, solution)"},
	{"CLUSTER", "auto, kind or local: the cluster's runtime (auto: kind when it can run here, else local)"},
	{"ARGS", "more arguments for the command (make ginkgo ARGS=\"-p\", make doctor ARGS=--json)"},
	{"NO_COLOR", "any value: no colour in the output"},
	{"WORKSHOP_LANG", "zh-CN: check, watch, hint and progress in Simplified Chinese (简体中文), as a Chinese LANG does; en: English"},
}

func printMakeHelp(w io.Writer, root *cobra.Command, lesson string) {
	fmt.Fprintln(w, "make TARGET [VARIABLE=value ...], from the workspace root or inside lessons/NN-topic/ (which sets LESSON).")
	for _, g := range root.Groups() {
		fmt.Fprintf(w, "\n%s\n", g.Title)
		for _, c := range allCommands(root) {
			if topGroup(c) == g.ID && c.Annotations[makeAnnotation] != "" {
				fmt.Fprintf(w, "  make %-16s %s\n", makeTarget(c), c.Short)
			}
		}
	}
	printLessonTargets(w, lesson)
	fmt.Fprintf(w, "\nVariables\n")
	for _, v := range variables(root) {
		fmt.Fprintf(w, "  %-10s %s\n", v[0], v[1])
	}
	fmt.Fprintln(w, "\nEvery target is a command of the workshop tool: .cache/bin/workshop --help, or workshop TARGET --help.")
}

// allCommands is the tree below root, depth first, in the order the commands were added.
func allCommands(root *cobra.Command) []*cobra.Command {
	var all []*cobra.Command
	for _, c := range root.Commands() {
		all = append(all, c)
		all = append(all, allCommands(c)...)
	}
	return all
}

// topGroup is the group of the top-level command c sits under.
func topGroup(c *cobra.Command) string {
	for c.HasParent() && c.Parent().HasParent() {
		c = c.Parent()
	}
	return c.GroupID
}

// variables lists each make variable once, with the first flag's meaning of it, in name order.
func variables(root *cobra.Command) [][2]string {
	seen := map[string]string{}
	for _, c := range allCommands(root) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if env := f.Annotations[envAnnotation]; len(env) > 0 && seen[env[0]] == "" {
				seen[env[0]] = strings.TrimSuffix(f.Usage, " ("+env[0]+"=)")
				seen[env[0]] = strings.TrimSuffix(seen[env[0]], " ("+env[0]+"=1)")
			}
		})
	}
	for _, v := range extraVariables {
		seen[v[0]] = v[1]
	}
	var list [][2]string
	for name, meaning := range seen {
		list = append(list, [2]string{name, meaning})
	}
	slices.SortFunc(list, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return list
}

// lessonTarget is a target of a lesson's own Makefile that says what it does: "run: ## text".
var lessonTarget = regexp.MustCompile(`(?m)^([a-z][a-z0-9-]*):.*## (.+)$`)

// printLessonTargets lists the targets the lesson's own Makefile adds, if any.
func printLessonTargets(w io.Writer, lesson string) {
	root, err := workspace.Root()
	if err != nil || lesson == "" {
		return
	}
	l, err := lessons.Find(root, lesson)
	if err != nil {
		return
	}
	data, err := os.ReadFile(filepath.Join(l.Dir, "Makefile"))
	if err != nil {
		return
	}
	matches := lessonTarget.FindAllStringSubmatch(string(data), -1)
	if len(matches) == 0 {
		return
	}
	fmt.Fprintf(w, "\nLesson %s's own targets (in lessons/%s/)\n", l.Number, l.Name)
	for _, m := range matches {
		fmt.Fprintf(w, "  make %-16s %s\n", m[1], m[2])
	}
}
