package lessons

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestManifestIsReadStrictly proves lesson.yaml is optional, read into what the runner asks, and
// refused with the file's name when it holds a key the tools do not know or a half section.
func TestManifestIsReadStrictly(t *testing.T) {
	l := fakeLesson(t)
	if m, err := readManifest(l.Dir); err != nil || m.OwnSpecs != nil || m.Generate != nil {
		t.Fatalf("no lesson.yaml is an ordinary lesson, got %+v (error %v)", m, err)
	}
	write(t, filepath.Join(l.Dir, ManifestFile), "ownSpecs:\n  exercise: 6\n  file: my_specs_test.go\n")
	m, err := readManifest(l.Dir)
	if err != nil || m.OwnSpecs == nil || m.OwnSpecs.Exercise != 6 || m.OwnSpecs.File != "my_specs_test.go" {
		t.Fatalf("want ownSpecs exercise 6, got %+v (error %v)", m, err)
	}
	l.Manifest = m
	if !l.IsOwnSpecs(6) || l.IsOwnSpecs(5) || l.Generates() {
		t.Fatal("IsOwnSpecs and Generates should follow the manifest")
	}
	if len(l.TestFlags()) != 0 {
		t.Errorf("without race: true, TestFlags = %v, want none", l.TestFlags())
	}
	write(t, filepath.Join(l.Dir, ManifestFile), "race: true\n")
	if l.Manifest, err = readManifest(l.Dir); err != nil || strings.Join(l.TestFlags(), " ") != "-race" {
		t.Errorf("race: true should build the specs with -race, TestFlags = %v (error %v)", l.TestFlags(), err)
	}
	for _, bad := range []string{"ownspecs:\n  exercise: 6\n", "ownSpecs:\n  file: x_test.go\n", "generate:\n  tool: x\n", "generate:\n  steps: []\n",
		"generate:\n  steps:\n    - tool: x\n", "generate:\n  from: starter\n  steps:\n    - tool: x\n      args: [a]\n"} {
		write(t, filepath.Join(l.Dir, ManifestFile), bad)
		if _, err := readManifest(l.Dir); err == nil || !strings.Contains(err.Error(), ManifestFile) {
			t.Errorf("%q: want an error naming %s, got %v", bad, ManifestFile, err)
		}
	}
}

// TestTheWorkspaceManifestsAreValid reads every lesson of the workspace, manifests included.
func TestTheWorkspaceManifestsAreValid(t *testing.T) {
	all, err := Discover(filepath.Join("..", "..", ".."))
	if err != nil || len(all) == 0 {
		t.Fatalf("discover the workspace's lessons: %d lessons, error %v", len(all), err)
	}
}

// TestScaffoldManifest proves lesson.yaml's scaffold section is read and a half one refused.
func TestScaffoldManifest(t *testing.T) {
	l := fakeLesson(t)
	write(t, filepath.Join(l.Dir, ManifestFile), "tags: [workshop]\nscaffold:\n  tool: example.com/cli\n  commands:\n    - [init, --x]\n  workshop: [README.md]\n")
	m, err := readManifest(l.Dir)
	if err != nil || m.Scaffold == nil || m.Scaffold.Tool != "example.com/cli" {
		t.Fatalf("want the scaffold section, got %+v (error %v)", m, err)
	}
	l.Manifest = m
	if !l.Scaffolded() || strings.Join(l.TestFlags(), " ") != "-tags=workshop" {
		t.Errorf("Scaffolded() = %v, TestFlags() = %v", l.Scaffolded(), l.TestFlags())
	}
	for _, bad := range []string{"scaffold:\n  tool: x\n", "scaffold:\n  commands:\n    - [init]\n",
		"scaffold:\n  tool: x\n  commands:\n    - [init]\n  check:\n    - []\n    - []\n",
		"scaffold:\n  tool: x\n  commands:\n    - [init]\n  patched:\n    - {file: a.go, old: x, new: y}\n"} {
		write(t, filepath.Join(l.Dir, ManifestFile), bad)
		if _, err := readManifest(l.Dir); err == nil || !strings.Contains(err.Error(), "scaffold") {
			t.Errorf("%q: want an error about scaffold, got %v", bad, err)
		}
	}
}
