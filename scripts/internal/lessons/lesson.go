// Package lessons finds the workshop's lessons and says what each one is: its manifest
// (lesson.yaml), its exercises, its learner files and their solution overlay, the sums of its
// shipped specs and its pinned tools. `make check` and `make test` are built on it and on its
// sub-packages, which take a lesson and do one thing with it: specrun builds and runs its specs,
// variants its wrong solutions and broken operators, generated its generated and scaffolded files.
package lessons

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"workshop.local/scripts/internal/say"
)

// Lesson is one numbered lesson module, lessons/NN-topic, and its solutions/NN-topic folder.
type Lesson struct {
	Name        string   // "01-gvk-gvr"
	Number      string   // "01"
	Dir         string   // absolute path of lessons/01-gvk-gvr
	SolutionDir string   // absolute path of solutions/01-gvk-gvr
	Manifest    Manifest // what lesson.yaml declares special about it (manifest.go)
	Exercises   []int    // the README's exercises, in order (exercises.go)
}

// Root is the workspace the lesson is part of: lessons/NN-topic is two folders below it.
func (l Lesson) Root() string { return filepath.Dir(filepath.Dir(l.Dir)) }

var lessonDirName = regexp.MustCompile(`^(\d\d)-[a-z0-9-]+$`)

// Discover lists the lessons under root/lessons in order.
func Discover(root string) ([]Lesson, error) {
	entries, err := os.ReadDir(filepath.Join(root, "lessons"))
	if err != nil {
		return nil, err
	}
	var found []Lesson
	for _, e := range entries {
		m := lessonDirName.FindStringSubmatch(e.Name())
		if !e.IsDir() || m == nil {
			continue
		}
		l := Lesson{
			Name: e.Name(), Number: m[1],
			Dir:         filepath.Join(root, "lessons", e.Name()),
			SolutionDir: filepath.Join(root, "solutions", e.Name()),
		}
		if l.Manifest, err = readManifest(l.Dir); err != nil {
			return nil, err
		}
		l.Exercises = l.readExercises()
		found = append(found, l)
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Name < found[j].Name })
	return found, nil
}

// Find picks the lesson a learner names: "1", "01", "01-gvk-gvr" or the folder's path.
func Find(root, name string) (Lesson, error) {
	all, err := Discover(root)
	if err != nil {
		return Lesson{}, err
	}
	name = filepath.Base(strings.TrimSuffix(name, "/"))
	if len(name) == 1 {
		name = "0" + name
	}
	var names []string
	for _, l := range all {
		if l.Name == name || l.Number == name {
			return l, nil
		}
		names = append(names, l.Number)
	}
	return Lesson{}, say.Errorf("no lesson %q: pick one of %s, e.g. make check LESSON=01", name, strings.Join(names, ", "))
}

// notLearnerFiles are the folders of solutions/NN-topic/ that hold no solution of a learner
// file: wrong solutions, broken operators, and the manifests a solution's types generate.
var notLearnerFiles = []string{"wrong", "broken", GeneratedDir}

// EditableFiles are the files a learner edits: exactly those that have a solution, as paths
// relative to the lesson with forward slashes ("parse.go", "api/v1alpha1/types.go").
func (l Lesson) EditableFiles() ([]string, error) {
	if _, err := os.Stat(l.SolutionDir); err != nil {
		return nil, fmt.Errorf("lesson %s has no solutions folder: %w", l.Name, err)
	}
	var files []string
	err := filepath.WalkDir(l.SolutionDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := relSlash(l.SolutionDir, path)
		switch {
		case d.IsDir() && slices.Contains(notLearnerFiles, rel):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(rel, ".go"):
			files = append(files, rel)
		}
		return nil
	})
	// lesson.yaml's files: learner files that are not Go, wherever they are (lesson 11's sample
	// lives under config/, beside the generated manifests).
	for _, f := range l.Manifest.Files {
		if _, statErr := os.Stat(filepath.Join(l.SolutionDir, filepath.FromSlash(f))); statErr == nil && !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return files, err
}
