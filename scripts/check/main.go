// Command check runs a lesson's specs for a learner (`make check`) and proves the whole
// workshop for its maintainers (`make test`):
//
//	go run ./scripts/check lesson 01 [EXERCISE]
//	go run ./scripts/check test [LESSON]   (LESSON limits the lesson checks to one)
//	go run ./scripts/check wrong LESSON [NAME]   (prove a lesson's wrong solutions, or one of them)
//	go run ./scripts/check watch|hint|reset|solution LESSON [EXERCISE]   (the learner's loop)
//	go run ./scripts/check progress [--json]
//	go run ./scripts/check mistakes   (write docs/mistakes.md from the wrong solutions' headers)
//	go run ./scripts/check dir|overlay LESSON   (print a lesson's folder, or write its solution overlay and print its path)
package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/workspace"
)

func main() { workspace.RunCommand("check", run) }

func run(ctx context.Context, args []string) (bool, error) {
	root, err := workspace.Root()
	if err != nil {
		return false, err
	}
	scratch := filepath.Join(root, ".cache", "check")
	switch {
	case len(args) >= 2 && args[0] == "lesson":
		exercise := 0
		if len(args) == 3 && args[2] != "" {
			if exercise, err = strconv.Atoi(args[2]); err != nil || exercise < 1 {
				return false, fmt.Errorf("EXERCISE=%q is not an exercise number: use EXERCISE=1, 2, ...", args[2])
			}
		}
		return checkLesson(ctx, root, scratch, args[1], exercise)
	case len(args) == 2 && (args[0] == "dir" || args[0] == "overlay"):
		return printLessonPath(root, scratch, args[0], args[1])
	case len(args) >= 2 && len(args) <= 3 && args[0] == "wrong":
		only := ""
		if len(args) == 3 {
			only = args[2]
		}
		return testWrong(ctx, root, scratch, args[1], only)
	case len(args) >= 2 && len(args) <= 3 && args[0] == "specs":
		file := ""
		if len(args) == 3 {
			file = args[2]
		}
		return proveSpecs(ctx, root, scratch, args[1], file)
	case len(args) >= 1 && isLearnerCommand(args[0]):
		return learnerCommand(ctx, root, scratch, args)
	case len(args) == 1 && args[0] == "mistakes":
		return writeMistakes(root)
	case len(args) >= 1 && args[0] == "test":
		only := ""
		if len(args) == 2 {
			only = args[1]
		}
		return selfTest(ctx, root, scratch, only)
	default:
		return false, fmt.Errorf("usage: check lesson NN [EXERCISE] | check test [LESSON] | check wrong NN [NAME] | check specs NN [FILE] | check watch|hint|reset|solution NN [EXERCISE] | check progress [--json] | check mistakes | check dir|overlay NN")
	}
}

// printLessonPath prints a lesson's folder, or the path of its solution overlay file, for the
// Makefile's ginkgo target.
func printLessonPath(root, scratch, what, name string) (bool, error) {
	lesson, err := lessons.Find(root, name)
	if err != nil {
		return false, err
	}
	path := lesson.Dir
	if what == "overlay" {
		if path, err = lesson.WriteOverlayFile(scratch); err != nil {
			return false, err
		}
	}
	fmt.Println(path)
	return true, nil
}
