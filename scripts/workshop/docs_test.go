package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"workshop.local/scripts/internal/learner"
	"workshop.local/scripts/internal/lessons"
)

// TestEveryDocumentedCommandExists reads every `make ...` command the README, the docs and the
// lessons' READMEs and hints give (in code spans and code blocks), and their zh-CN translations,
// and checks it against the tool:
// the target is a command of the tree (or a lesson's own target), each VARIABLE=value is one
// some command reads, and a LESSON and EXERCISE it names exist. A renamed target or variable
// that a text still teaches fails here, not in a learner's terminal.
func TestEveryDocumentedCommandExists(t *testing.T) {
	root := workspaceRoot(t)
	all, err := lessons.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	targets, known := makeTargets(root, all), knownVariables(all)
	files := documents(t, root)
	checked := 0
	for _, file := range files {
		for _, cmd := range documentedCommands(t, file) {
			checked++
			rel, _ := filepath.Rel(root, file)
			if problem := checkDocumented(cmd, targets, known, all); problem != "" {
				t.Errorf("%s: `%s`: %s", rel, cmd, problem)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d make commands found in %d documents: is the extraction broken?", checked, len(files))
	}
}

func workspaceRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// documents are the texts learners and maintainers read commands from, in English and in
// their translations (X.zh-CN.md; docs/*.md holds docs' own): a Chinese page teaches the same
// commands, and a learner types them the same way.
func documents(t *testing.T, root string) []string {
	var files []string
	for _, pattern := range []string{"README.md", "docs/*.md", "lessons/*/README.md", "lessons/*/hints.md",
		"README.zh-CN.md", "lessons/*/README.zh-CN.md", "lessons/*/hints.zh-CN.md"} {
		found, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, found...)
	}
	return files
}

var (
	codeSpan    = regexp.MustCompile("`(make [^`]+)`")
	makeCommand = regexp.MustCompile(`^make( -s)? [a-z][a-z0-9-]*( +[A-Z_]+=("[^"]*"|\S+))*`)
)

// documentedCommands are the make commands in a text's code spans and code blocks, each cut at
// its end (a comment, a pipe, a second command).
func documentedCommands(t *testing.T, file string) []string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	fenced := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		candidates := []string{}
		if fenced {
			candidates = append(candidates, strings.TrimSpace(line))
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			candidates = append(candidates, m[1])
		}
		for _, c := range candidates {
			if m := makeCommand.FindString(c); m != "" {
				found = append(found, m)
			}
		}
	}
	return found
}

// makeTargets are the root Makefile's targets as the tree declares them, plus the ones the
// Makefile alone has and every lesson's own ("run: ## ...").
func makeTargets(root string, all []lessons.Lesson) []string {
	targets := []string{"help", "tools", "pins", "bench-cluster"}
	for _, c := range allCommands(newRoot()) {
		if t := c.Annotations[makeAnnotation]; t != "" {
			targets = append(targets, t)
		}
	}
	for _, l := range all {
		data, _ := os.ReadFile(filepath.Join(l.Dir, "Makefile"))
		for _, m := range lessonTarget.FindAllStringSubmatch(string(data), -1) {
			targets = append(targets, m[1])
		}
	}
	return targets
}

// knownVariables are the variables the tool reads, and those a lesson's own Makefile lets a
// learner set (lesson 11's kubebuilder Makefile: `IMG ?= controller:latest`).
func knownVariables(all []lessons.Lesson) []string {
	var names []string
	for _, v := range variables(newRoot()) {
		names = append(names, v[0])
	}
	for _, l := range all {
		data, _ := os.ReadFile(filepath.Join(l.Dir, "Makefile"))
		for _, m := range lessonVariable.FindAllStringSubmatch(string(data), -1) {
			names = append(names, m[1])
		}
	}
	return names
}

// lessonVariable is a variable a lesson's Makefile declares, which its caller may override on
// the command line (`IMG ?= ...`, `export KUBECONFIG := ...`).
var lessonVariable = regexp.MustCompile(`(?m)^(?:export )?([A-Z][A-Z_]*) [:?]?=`)

// checkDocumented says what is wrong with one documented command, or "".
func checkDocumented(cmd string, targets, known []string, all []lessons.Lesson) string {
	fields := strings.Fields(strings.TrimPrefix(strings.TrimPrefix(cmd, "make "), "-s "))
	if !slices.Contains(targets, fields[0]) {
		return "no make target " + fields[0]
	}
	vars := map[string]string{}
	for _, f := range fields[1:] {
		name, value, ok := strings.Cut(f, "=")
		if !ok {
			continue // the rest of a quoted value
		}
		if !slices.Contains(known, name) {
			return "no command reads the variable " + name
		}
		vars[name] = value
	}
	return checkTarget(vars, all)
}

// checkTarget checks a LESSON and an EXERCISE that are given as values (NN and N are
// placeholders, as the texts write them).
func checkTarget(vars map[string]string, all []lessons.Lesson) string {
	name, ok := vars["LESSON"]
	if !ok || name == "NN" {
		return ""
	}
	i := slices.IndexFunc(all, func(l lessons.Lesson) bool { return l.Number == name || l.Name == name })
	if i < 0 {
		return "no lesson " + name
	}
	exercise, ok := vars["EXERCISE"]
	if !ok || exercise == "N" {
		return ""
	}
	list, err := learner.ReadExercises(all[i].Dir)
	if err != nil {
		return err.Error()
	}
	if !slices.ContainsFunc(list, func(e learner.ExerciseInfo) bool { return e.Title != "" && exercise == strconv.Itoa(e.Number) }) {
		return "lesson " + name + " has no exercise " + exercise
	}
	return ""
}
