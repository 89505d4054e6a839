package lessons

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestNonGoLearnerFiles proves lesson.yaml's files are learner files even under config/, where
// the generated manifests live (lesson 11's sample), and only when the solution has them.
func TestNonGoLearnerFiles(t *testing.T) {
	l := fakeLesson(t)
	l.Manifest.Files = []string{"config/samples/sample.yaml", "config/samples/missing.yaml"}
	write(t, filepath.Join(l.SolutionDir, "config", "samples", "sample.yaml"), "kind: Demo\n")
	write(t, filepath.Join(l.SolutionDir, "config", "crd", "demo.yaml"), "kind: CustomResourceDefinition\n")
	files, err := l.EditableFiles()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(files, []string{"demo.go", "config/samples/sample.yaml"}) {
		t.Errorf("EditableFiles = %v, want demo.go and the sample (not the generated CRD, not a file the solution lacks)", files)
	}
}
