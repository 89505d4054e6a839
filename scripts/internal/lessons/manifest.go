package lessons

import (
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// ManifestFile, in a lesson's folder, declares what is special about the lesson: what the tools
// must do beyond the anatomy every lesson has (learner files with solutions, specs labelled by
// exercise, wrong solutions). A lesson without one is an ordinary lesson. The runner asks the
// Lesson (OwnSpecs, Generates, ...), never a lesson number.
const ManifestFile = "lesson.yaml"

// Manifest is lesson.yaml.
type Manifest struct {
	// OwnSpecs is an exercise whose specs the learner writes (lesson 10's exercise 6).
	OwnSpecs *OwnSpecs `json:"ownSpecs,omitempty"`
	// Generate is code and manifests generated from the learner's files, committed, compared by
	// make test and made afresh for a wrong solution.
	Generate *Generate `json:"generate,omitempty"`
	// Race builds the lesson's specs with the race detector (go test -race) wherever the tools
	// build them: the lesson teaches concurrency, and a data race in a learner's bookkeeping is
	// a mistake its specs must catch. It needs cgo and costs a slower build and run.
	Race bool `json:"race,omitempty"`
}

// TestFlags are the go test build flags every build of the lesson's specs needs.
func (l Lesson) TestFlags() []string {
	if l.Manifest.Race {
		return []string{"-race"}
	}
	return nil
}

// OwnSpecs: the learner writes File, whose specs carry Exercise's label. A check runs it against
// the reference solution (every spec must pass) and against each broken operator in
// solutions/NN-topic/broken/ (each must make a spec fail).
type OwnSpecs struct {
	Exercise int    `json:"exercise"`
	File     string `json:"file"`
}

// Generate runs Tool (a `tool` of the lesson's tools/go.mod, built outside go.work) in the folder
// of the package's sources with Args, in which {out} stands for the folder to write.
type Generate struct {
	Tool string   `json:"tool"`
	Args []string `json:"args"`
}

// readManifest reads the lesson's lesson.yaml; no file is the empty manifest.
func readManifest(dir string) (Manifest, error) {
	var m Manifest
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if os.IsNotExist(err) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := yaml.UnmarshalStrict(data, &m); err != nil {
		return m, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	if o := m.OwnSpecs; o != nil && (o.Exercise < 1 || o.File == "") {
		return m, fmt.Errorf("%s: ownSpecs needs an exercise number and a file", filepath.Join(dir, ManifestFile))
	}
	if g := m.Generate; g != nil && (g.Tool == "" || len(g.Args) == 0) {
		return m, fmt.Errorf("%s: generate needs a tool and its args", filepath.Join(dir, ManifestFile))
	}
	return m, nil
}

// OwnSpecs is the lesson's "write your own specs" exercise, or nil.
func (l Lesson) OwnSpecs() *OwnSpecs { return l.Manifest.OwnSpecs }

// IsOwnSpecs says whether exercise is the lesson's "write your own specs" exercise.
func (l Lesson) IsOwnSpecs(exercise int) bool {
	return l.Manifest.OwnSpecs != nil && l.Manifest.OwnSpecs.Exercise == exercise
}

// Generates says whether the lesson generates files from the learner's code (make generate).
func (l Lesson) Generates() bool { return l.Manifest.Generate != nil }
