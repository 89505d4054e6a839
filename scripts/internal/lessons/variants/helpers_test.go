package variants

import "workshop.local/scripts/internal/lessons/lessontest"

// The shared fixtures, under the short names these tests use.
var (
	fakeLesson = lessontest.FakeLesson
	write      = lessontest.Write
)
