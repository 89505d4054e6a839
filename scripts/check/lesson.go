package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"workshop.local/scripts/internal/lessons"
)

// checkLesson runs one lesson's specs against the learner's files, shows Ginkgo's output, and
// ends with a summary per exercise and the next step. It returns true when all checked pass.
func checkLesson(ctx context.Context, root, scratch, name string, exercise int) (bool, error) {
	lesson, err := lessons.Find(root, name)
	if err != nil {
		return false, err
	}
	fmt.Printf("Checking lesson %s against the workshop cluster...\n\n", lesson.Name)
	res, err := lessons.Execute(ctx, lessons.Run{
		Lesson: lesson, Exercise: exercise, ReportDir: scratch, Output: os.Stdout,
	})
	if err != nil {
		return false, err
	}
	fmt.Println()
	if res.SuiteError != "" && len(res.Specs) == 0 {
		fmt.Printf("Lesson %s did not run: %s\n", lesson.Number, res.SuiteError)
		return false, nil
	}
	return summarize(root, lesson, res, exercise), nil
}

// summarize prints one line per exercise and what to do next.
func summarize(root string, lesson lessons.Lesson, res lessons.Result, only int) bool {
	exercises := res.Exercises()
	done := 0
	for _, e := range exercises {
		mark := "todo"
		if e.Done() {
			mark, done = "done", done+1
		}
		fmt.Printf("  [%s] %-48s %d of %d specs pass\n", mark, e.Title, e.Passed, e.Total)
	}
	fmt.Printf("\nLesson %s: %d of %d exercises pass", lesson.Number, done, len(exercises))
	if only > 0 {
		fmt.Printf(" (only exercise %d was checked)", only)
	}
	fmt.Println(".")
	for _, e := range exercises {
		if !e.Done() {
			printNext(root, lesson, e)
			return false
		}
	}
	printFinished(root, lesson, only)
	return true
}

func printNext(root string, lesson lessons.Lesson, e lessons.Exercise) {
	rel := func(p string) string { r, _ := filepath.Rel(root, p); return r }
	fmt.Printf("Next: %s.\n", e.Title)
	if file, line := lesson.TODO(e.Number); file != "" {
		fmt.Printf("  edit  %s:%d  (TODO(exercise %d))\n", rel(filepath.Join(lesson.Dir, file)), line, e.Number)
	}
	fmt.Printf("  hints %s, section \"Exercise %d\"\n", rel(filepath.Join(lesson.Dir, "README.md")), e.Number)
	fmt.Printf("  first failing spec: %s\n", e.FirstFailure.Text)
	if e.FirstFailure.Failure != "" {
		fmt.Printf("    %s\n", e.FirstFailure.Failure)
	}
	fmt.Printf("  check it alone: make check LESSON=%s EXERCISE=%d\n", lesson.Number, e.Number)
}

func printFinished(root string, lesson lessons.Lesson, only int) {
	if only > 0 {
		fmt.Printf("Exercise %d passes. Check the whole lesson: make check LESSON=%s\n", only, lesson.Number)
		return
	}
	all, _ := lessons.Discover(root)
	for i, l := range all {
		if l.Name == lesson.Name && i+1 < len(all) {
			fmt.Printf("Well done. On to lesson %s: lessons/%s/README.md, then make check LESSON=%s\n", all[i+1].Number, all[i+1].Name, all[i+1].Number)
			return
		}
	}
	fmt.Println("Well done: that was the last lesson.")
}
