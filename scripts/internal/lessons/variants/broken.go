package variants

import (
	"path/filepath"

	"workshop.local/scripts/internal/lessons"
)

// Broken operators, for a lesson's "write your own specs" exercise (lesson.yaml's ownSpecs:
// lesson 10's exercise 6, lesson 11's). The learner's spec file is run against the reference
// operator (every spec must pass) and against broken operators shipped with the lesson (each
// must make a spec fail). A broken operator is solutions/NN-topic/broken/<name>.patch: a Patch
// (patch.go) of one operator file, opening "Broken: <the kind of behaviour it gets wrong>." —
// the only thing a learner is told of it.

// Broken lists the lesson's broken operators in name order; a malformed one is listed
// with its Problem set.
func Broken(l lessons.Lesson) ([]Patch, error) { return List(l, BrokenKind) }

// ReferenceSpecs is the lesson's own answer to the exercise: the spec file that must catch every
// broken operator.
func ReferenceSpecs(l lessons.Lesson) string { return filepath.Join(l.SolutionDir, l.OwnSpecs().File) }

// SpecsOverlay is the reference operator (the solution's files) with specs, a spec file, in
// place as the lesson's own-specs file.
func SpecsOverlay(l lessons.Lesson, specs string) (map[string]string, error) {
	overlay, err := l.SolutionOverlay()
	if err != nil {
		return nil, err
	}
	overlay[filepath.Join(l.Dir, l.OwnSpecs().File)] = specs
	return overlay, nil
}

// BrokenOverlay is SpecsOverlay with b's file, patched into dir, in place of the reference
// operator's.
func BrokenOverlay(l lessons.Lesson, b Patch, specs, dir string) (map[string]string, error) {
	overlay, err := Overlay(l, b, dir)
	if err != nil {
		return nil, err
	}
	overlay[filepath.Join(l.Dir, l.OwnSpecs().File)] = specs
	return overlay, nil
}
