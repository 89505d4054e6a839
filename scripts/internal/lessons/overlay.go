package lessons

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
)

// SolutionOverlay maps each learner-editable file to its solution, as go build's -overlay and
// go/packages' Overlay want it. The learner's files on disk are never touched.
func (l Lesson) SolutionOverlay() (map[string]string, error) {
	files, err := l.EditableFiles()
	if err != nil {
		return nil, err
	}
	overlay := map[string]string{}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(l.Dir, f)); err != nil {
			return nil, fmt.Errorf("solutions/%s/%s has no counterpart in lessons/%s: a solution may only replace learner files", l.Name, f, l.Name)
		}
		overlay[filepath.Join(l.Dir, f)] = filepath.Join(l.SolutionDir, f)
	}
	generated, err := l.solutionGenerated() // the manifests its types generate (below)
	if err != nil {
		return nil, err
	}
	maps.Copy(overlay, generated)
	return overlay, nil
}

// WriteOverlayFile writes the overlay as the JSON file `go build -overlay` reads.
func (l Lesson) WriteOverlayFile(dir string) (string, error) {
	overlay, err := l.SolutionOverlay()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay-"+l.Name+".json")
	return path, WriteOverlay(overlay, path)
}

// WriteOverlay writes overlay (file -> replacement) to path as the JSON `go build -overlay` reads.
// A replaced Go file is compiled under another name in its folder (manager.go deleted, its
// replacement added as manager_overlaid.go): the binary records that name, which is on no
// disk. Under its own name, the file on disk (the starter) would be taken for the code that
// ran, and Ginkgo, quoting the source of a spec that timed out, indexes the starter's lines
// with the solution's line numbers and panics ("slice bounds out of range" in fetchSource)
// instead of failing the spec by name.
func WriteOverlay(overlay map[string]string, path string) error {
	data, err := json.MarshalIndent(map[string]any{"Replace": renameGoFiles(overlay)}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// renameGoFiles moves each replacement Go file to a name of its own (see WriteOverlay).
func renameGoFiles(overlay map[string]string) map[string]string {
	renamed := make(map[string]string, len(overlay))
	for file, replacement := range overlay {
		if replacement == "" || replacement == file || !strings.HasSuffix(file, ".go") {
			renamed[file] = replacement
			continue
		}
		renamed[file] = "" // deleted: the build sees only the replacement
		renamed[OverlaidName(file)] = replacement
	}
	return renamed
}

// OverlaidName is the name a replaced Go file is compiled under: manager.go becomes
// manager_overlaid.go, specs_test.go becomes specs_overlaid_test.go.
func OverlaidName(file string) string {
	if base, ok := strings.CutSuffix(file, "_test.go"); ok {
		return base + "_overlaid_test.go"
	}
	return strings.TrimSuffix(file, ".go") + "_overlaid.go"
}

// GeneratedDir is the folder of generated files other than Go, relative to the lesson.
const GeneratedDir = "config"

// solutionGenerated maps each generated file of the lesson to the solution's copy, for the
// solution overlay: every file under solutions/NN-topic/config/.
func (l Lesson) solutionGenerated() (map[string]string, error) {
	overlay := map[string]string{}
	root := filepath.Join(l.SolutionDir, GeneratedDir)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(l.SolutionDir, path)
		overlay[filepath.Join(l.Dir, rel)] = path
		return nil
	})
	if os.IsNotExist(err) {
		return overlay, nil
	}
	return overlay, err
}
