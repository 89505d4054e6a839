package lessons

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Broken operators, for a lesson's "write your own specs" exercise (lesson.yaml's ownSpecs:
// lesson 10's exercise 6). The learner's spec file is run against the reference operator
// (every spec must pass) and against broken operators shipped with the lesson (each must make a
// spec fail). A broken operator is solutions/NN-topic/broken/<name>/: one or more replacements
// for the operator's learner files, the first (by name) opening with
// "// Broken: <the kind of behaviour it gets wrong>." — the only thing a learner is told of it.

// Broken is one broken operator.
type Broken struct {
	Name      string   // the folder's kebab-case name
	Files     []string // absolute paths of its replacement files
	Behaviour string   // from the header, without the trailing dot
	Problem   string   // why it cannot be used; "" when it is well-formed
}

var brokenHeader = regexp.MustCompile(`^// Broken: (.+)\.$`)

// ReferenceSpecs is the lesson's own answer to the exercise: the spec file that must catch every
// broken operator.
func (l Lesson) ReferenceSpecs() string { return filepath.Join(l.SolutionDir, l.OwnSpecs().File) }

// BrokenOperators lists the lesson's broken operators in name order; a malformed one is listed
// with its Problem set.
func (l Lesson) BrokenOperators() ([]Broken, error) {
	entries, editable, err := l.replacementFolders(filepath.Join(l.SolutionDir, "broken"))
	if err != nil || entries == nil {
		return nil, err
	}
	var list []Broken
	for _, e := range entries {
		list = append(list, l.readBroken(e, editable))
	}
	return list, nil
}

func (l Lesson) readBroken(e os.DirEntry, editable []string) Broken {
	b := Broken{Name: e.Name()}
	if !e.IsDir() || !kebabName.MatchString(b.Name) {
		b.Problem = "a broken operator is a folder broken/<kebab-name>/ of learner files"
		return b
	}
	b.Files = goFilesUnder(filepath.Join(l.SolutionDir, "broken", b.Name))
	if len(b.Files) == 0 {
		b.Problem = "the folder holds no .go file"
		return b
	}
	for _, f := range b.Files {
		if name := b.learnerFile(l, f); !slices.Contains(editable, name) || strings.HasSuffix(name, "_test.go") {
			b.Problem = fmt.Sprintf("%s is not a learner file of the operator (those are %s)", name, strings.Join(editable, ", "))
			return b
		}
	}
	behaviour, err := readBrokenHeader(b.Files[0])
	if err != nil {
		b.Problem = err.Error()
	}
	b.Behaviour = behaviour
	return b
}

// readBrokenHeader reads "// Broken: <behaviour>." and checks at least one more comment line,
// a blank line and the package clause follow.
func readBrokenHeader(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	var lines []string
	for scanner.Scan() && len(lines) < 40 {
		lines = append(lines, scanner.Text())
	}
	if len(lines) == 0 || !brokenHeader.MatchString(lines[0]) {
		return "", fmt.Errorf("%s: the first line must be `// Broken: <the kind of behaviour it gets wrong>.`", filepath.Base(path))
	}
	i := 1
	for i < len(lines) && strings.HasPrefix(lines[i], "//") {
		i++
	}
	if i == 1 || i+1 >= len(lines) || lines[i] != "" || !strings.HasPrefix(lines[i+1], "package ") {
		return "", fmt.Errorf("%s: the header needs a second // line saying how it is broken, then a blank line and the package clause", filepath.Base(path))
	}
	return brokenHeader.FindStringSubmatch(lines[0])[1], nil
}

// SpecsOverlay is the reference operator (the solution's files) with specs, a spec file, in
// place as the lesson's own-specs file.
func (l Lesson) SpecsOverlay(specs string) (map[string]string, error) {
	overlay, err := l.SolutionOverlay()
	if err != nil {
		return nil, err
	}
	overlay[filepath.Join(l.Dir, l.OwnSpecs().File)] = specs
	return overlay, nil
}

// BrokenOverlay is SpecsOverlay with b's files in place of the reference operator's.
func (l Lesson) BrokenOverlay(b Broken, specs string) (map[string]string, error) {
	overlay, err := l.SpecsOverlay(specs)
	if err != nil {
		return nil, err
	}
	for _, f := range b.Files {
		overlay[filepath.Join(l.Dir, b.learnerFile(l, f))] = f
	}
	return overlay, nil
}

// learnerFile is the learner file a broken operator's file replaces: its path below the
// operator's folder.
func (b Broken) learnerFile(l Lesson, file string) string {
	return relSlash(filepath.Join(l.SolutionDir, "broken", b.Name), file)
}

// goFilesUnder lists the .go files below dir, in path order.
func goFilesUnder(dir string) []string {
	var files []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	return files
}
