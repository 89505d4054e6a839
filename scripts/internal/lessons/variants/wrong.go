package variants

import "workshop.local/scripts/internal/lessons"

// Wrong solutions: solutions/NN-topic/wrong/<name>.patch, each a Patch (patch.go) of one
// solution file that makes one realistic mistake. Its proof is that the specs of its exercise
// fail when the patched file replaces the solution's.

// WrongDir is where the lesson's wrong solutions live.
func WrongDir(l lessons.Lesson) string { return Dir(l, WrongKind) }

// Wrong lists the lesson's wrong solutions in name order, malformed ones with their
// Problem set.
func Wrong(l lessons.Lesson) ([]Patch, error) { return List(l, WrongKind) }
