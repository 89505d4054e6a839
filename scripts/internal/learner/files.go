package learner

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"workshop.local/scripts/internal/lessons"
)

// Starter is a learner file as the workshop's git history has it: the starter to reset to.
// Taken from git (HEAD), never from a copy that could drift from what the lesson ships.
func Starter(l lessons.Lesson, file string) ([]byte, error) {
	cmd := exec.Command("git", "show", "HEAD:./"+file)
	cmd.Dir = l.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git show HEAD:%s in %s: %v: %s", file, l.Dir, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// ExerciseFiles are the learner files of one exercise: those whose starter (from git, so a
// marker the learner deleted still counts) holds "TODO(exercise N)". Exercise 0 is every
// learner file of the lesson.
func ExerciseFiles(l lessons.Lesson, exercise int) ([]string, error) {
	files, err := l.EditableFiles()
	if err != nil || exercise == 0 {
		return files, err
	}
	marker := []byte(fmt.Sprintf("TODO(exercise %d)", exercise))
	var mine []string
	for _, f := range files {
		starter, err := Starter(l, f)
		if err != nil {
			return nil, err
		}
		if bytes.Contains(starter, marker) {
			mine = append(mine, f)
		}
	}
	if len(mine) == 0 {
		return nil, fmt.Errorf("lesson %s has no exercise %d (no learner file holds TODO(exercise %d))", l.Number, exercise, exercise)
	}
	return mine, nil
}

var todoMarker = regexp.MustCompile(`TODO\(exercise (\d+)\)`)

// OtherExercises are the exercises besides this one whose markers the file's starter holds.
func OtherExercises(l lessons.Lesson, file string, exercise int) []int {
	starter, _ := Starter(l, file)
	var others []int
	for _, m := range todoMarker.FindAllSubmatch(starter, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		if n != exercise && !slices.Contains(others, n) {
			others = append(others, n)
		}
	}
	return others
}

// Reset is what a reset did: where the learner's versions went, and which files changed.
type Reset struct {
	Backup  string   // the backup folder; "" when nothing differed from the starter
	Files   []string // the files put back to their starter
	Already []string // the files that were the starter already
}

// ResetFiles saves the learner's versions of files to a timestamped, named backup folder under
// .progress/backups, then writes each file's starter back.
func ResetFiles(root string, l lessons.Lesson, label string, files []string, now time.Time) (Reset, error) {
	var r Reset
	starters := map[string][]byte{}
	for _, f := range files {
		starter, err := Starter(l, f)
		if err != nil {
			return r, err
		}
		mine, err := os.ReadFile(filepath.Join(l.Dir, f))
		if err == nil && bytes.Equal(mine, starter) {
			r.Already = append(r.Already, f)
			continue
		}
		starters[f] = starter
		if err != nil {
			continue // deleted: nothing to back up, the starter comes back
		}
		if r.Backup == "" {
			r.Backup = filepath.Join(Dir(root), "backups", fmt.Sprintf("%s-%s-%s", l.Name, label, now.Format("20060102-150405")))
			if err := os.MkdirAll(r.Backup, 0o755); err != nil {
				return r, err
			}
		}
		if err := os.WriteFile(filepath.Join(r.Backup, f), mine, 0o644); err != nil {
			return r, err
		}
	}
	for _, f := range files {
		if starter, ok := starters[f]; ok {
			if err := os.WriteFile(filepath.Join(l.Dir, f), starter, 0o644); err != nil {
				return r, err
			}
			r.Files = append(r.Files, f)
		}
	}
	return r, nil
}

// Backups lists the backup folders, oldest first (their names sort by time within a lesson).
func Backups(root string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(Dir(root), "backups"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names, err
}

// SolutionDiff is `git diff --no-index` of the learner's files against the reference solution:
// lines marked - are the learner's, + the solution's.
func SolutionDiff(root string, l lessons.Lesson, files []string, color bool) (string, error) {
	var out bytes.Buffer
	for _, f := range files {
		mine, _ := filepath.Rel(root, filepath.Join(l.Dir, f))
		solution, _ := filepath.Rel(root, filepath.Join(l.SolutionDir, f))
		args := []string{"diff", "--no-index", "--color=never"}
		if color {
			args[2] = "--color=always"
		}
		cmd := exec.Command("git", append(args, "--", mine, solution)...)
		cmd.Dir = root
		cmd.Stdout = &out
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if exit, ok := err.(*exec.ExitError); ok && exit.ExitCode() == 1 {
			continue // 1 means "they differ", which is what we asked
		}
		if err != nil {
			return "", fmt.Errorf("git diff %s %s: %v: %s", mine, solution, err, stderr.String())
		}
		fmt.Fprintf(&out, "%s is the same as the solution.\n", mine)
	}
	return out.String(), nil
}

// RestoreSupport puts the lesson's specs and support files back as the workspace ships them
// (edited is lessons.EditedSupport's list): a changed or removed file from git (HEAD), an added
// one moved out of the lesson. What it replaces or moves is saved to a backup folder first. It
// returns what it did, a line per file, and the backup folder ("" when none was needed).
func RestoreSupport(root string, l lessons.Lesson, edited []string, now time.Time) ([]string, string, error) {
	backup := filepath.Join(Dir(root), "backups", fmt.Sprintf("%s-specs-%s", l.Name, now.Format("20060102-150405")))
	var done []string
	for _, e := range edited {
		how, file, _ := strings.Cut(e, ": ")
		path := filepath.Join(root, file)
		if mine, err := os.ReadFile(path); err == nil {
			if err := saveTo(filepath.Join(backup, file), mine); err != nil {
				return done, backup, err
			}
		}
		if how == "added" {
			if err := os.Remove(path); err != nil {
				return done, backup, err
			}
			done = append(done, "removed "+file+" (not part of the workspace)")
			continue
		}
		shipped, err := gitShow(root, file)
		if err != nil {
			return done, backup, err
		}
		if err := os.WriteFile(path, shipped, 0o644); err != nil {
			return done, backup, err
		}
		done = append(done, "restored "+file)
	}
	if len(done) == 0 {
		backup = ""
	}
	return done, backup, nil
}

func saveTo(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// gitShow is a file as the workspace's git history has it (HEAD), path relative to root.
func gitShow(root, file string) ([]byte, error) {
	cmd := exec.Command("git", "show", "HEAD:"+file)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git show HEAD:%s: %v: %s", file, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
