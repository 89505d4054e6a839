package lessons

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A learner edits the exercise files; the specs, and the code they run on, are the workspace's.
// A check whose specs were edited (an assertion gutted, a `return` first) proves nothing, so the
// tools must know when they run on anything else than what the workspace shipped. SumsFile lists
// a SHA-256 of every such file, as the workspace ships it: the specs and support files of each
// lesson and the spec harness. make test keeps it current (make sums writes it); make check
// compares against it, with no git needed, in a clone and from the classroom kit alike.
const SumsFile = "lessons/specs.sha256"

// harnessDir is the spec harness every lesson's suite runs on, relative to the root.
const harnessDir = "lessons/internal/harness"

// SupportFiles are the lesson's Go files that are not the learner's to edit: specs, the suite,
// support code. Not the learner files, not the file of an own-specs exercise (the learner writes
// it), not generated files (the learner regenerates them from their code). Paths are relative to
// the workspace root, with forward slashes.
func (l Lesson) SupportFiles(root string) ([]string, error) {
	editable, err := l.EditableFiles()
	if err != nil {
		return nil, err
	}
	var files []string
	err = filepath.WalkDir(l.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(l.Dir, path)
		name := filepath.ToSlash(rel)
		switch {
		case slices.Contains(editable, name),
			l.OwnSpecs() != nil && name == l.OwnSpecs().File,
			strings.HasPrefix(filepath.Base(name), "zz_generated"):
			return nil
		}
		files = append(files, relSlash(root, path))
		return nil
	})
	return files, err
}

// shippedFiles are every file SumsFile covers: each lesson's support files and the harness.
func shippedFiles(root string, all []Lesson) ([]string, error) {
	// The harness's own packages (harness, harness/races), not its tests' fixtures in testdata.
	harness, err := filepath.Glob(filepath.Join(root, harnessDir, "*.go"))
	if err != nil {
		return nil, err
	}
	subpackages, err := filepath.Glob(filepath.Join(root, harnessDir, "*", "*.go"))
	if err != nil {
		return nil, err
	}
	harness = append(harness, subpackages...)
	var files []string
	for _, h := range harness {
		files = append(files, relSlash(root, h))
	}
	for _, l := range all {
		support, err := l.SupportFiles(root)
		if err != nil {
			return nil, err
		}
		files = append(files, support...)
	}
	slices.Sort(files)
	return files, nil
}

// RenderSums is SumsFile's content for the files as they are now.
func RenderSums(root string, all []Lesson) ([]byte, error) {
	files, err := shippedFiles(root, all)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("# Written by make sums: the SHA-256 of every spec and support file as the workspace ships it.\n")
	b.WriteString("# make check compares against it; make test checks it is current. Do not edit by hand.\n")
	for _, f := range files {
		sum, err := fileSum(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, f)
	}
	return b.Bytes(), nil
}

// SpecsDigest is the SHA-256 of what `make sums` would write now: one value for every spec and
// support file of the workspace as they are on disk. A learner's board reports carry it, and the
// instructor's board marks a learner whose specs are not the instructor's (edited, then made to
// look shipped with make sums; or another version of the workshop).
func SpecsDigest(root string) (string, error) {
	all, err := Discover(root)
	if err != nil {
		return "", err
	}
	sums, err := RenderSums(root, all)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(sums)
	return hex.EncodeToString(sum[:]), nil
}

// EditedSupport lists what differs, in the lesson and the harness, from what the workspace
// shipped: files changed or removed, and Go files added that are neither learner files nor
// shipped ("changed: lessons/01-gvk-gvr/parse_test.go"). Empty means the checks count.
func (l Lesson) EditedSupport(root string) ([]string, error) {
	shipped, err := readSums(root)
	if err != nil {
		return nil, err
	}
	var edited []string
	for file, want := range shipped {
		if !strings.HasPrefix(file, relSlash(root, l.Dir)+"/") && !strings.HasPrefix(file, harnessDir+"/") {
			continue
		}
		got, err := fileSum(filepath.Join(root, file))
		switch {
		case os.IsNotExist(err):
			edited = append(edited, "removed: "+file)
		case err != nil:
			return nil, err
		case got != want:
			edited = append(edited, "changed: "+file)
		}
	}
	now, err := l.SupportFiles(root)
	if err != nil {
		return nil, err
	}
	for _, f := range now {
		if _, ok := shipped[f]; !ok {
			edited = append(edited, "added: "+f)
		}
	}
	slices.Sort(edited)
	return edited, nil
}

// readSums reads SumsFile into file -> SHA-256.
func readSums(root string) (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(root, SumsFile))
	if err != nil {
		return nil, fmt.Errorf("the workspace ships %s, which is missing (%v): restore it from git", SumsFile, err)
	}
	sums := map[string]string{}
	scanner := bufio.NewScanner(bytes.NewReader(data))
	for scanner.Scan() {
		line := scanner.Text()
		if sum, file, ok := strings.Cut(line, "  "); ok && !strings.HasPrefix(line, "#") {
			sums[file] = sum
		}
	}
	return sums, scanner.Err()
}

func fileSum(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

func relSlash(root, path string) string {
	rel, _ := filepath.Rel(root, path)
	return filepath.ToSlash(rel)
}
