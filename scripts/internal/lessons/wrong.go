package lessons

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Wrong is one wrong solution: solutions/NN-topic/wrong/<name>/<file>.go, a copy of one
// solution file with one realistic mistake. Its proof is that the specs of its exercise fail
// when it replaces that file in the otherwise complete solution.
type Wrong struct {
	Name     string // the folder's kebab-case name, e.g. "no-reset-on-miss"
	File     string // the learner file it replaces, e.g. "mapper.go"
	Path     string // absolute path of the wrong file
	Exercise int    // from its header line
	Mistake  string // the header's sentence, without the trailing dot
	Problem  string // why it cannot be proven (bad folder or header); "" when it is well-formed
}

// wrongHeader is the first line every wrong solution starts with.
var (
	wrongHeader = regexp.MustCompile(`^// Wrong \(exercise (\d+)\): (.+)\.$`)
	kebabName   = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// WrongDir is where the lesson's wrong solutions live.
func (l Lesson) WrongDir() string { return filepath.Join(l.SolutionDir, "wrong") }

// WrongSolutions lists the lesson's wrong solutions in name order. A malformed one is listed
// with its Problem set rather than dropped, so the proof reports it instead of ignoring it.
func (l Lesson) WrongSolutions() ([]Wrong, error) {
	entries, editable, err := l.replacementFolders(l.WrongDir())
	if err != nil || entries == nil {
		return nil, err
	}
	var list []Wrong
	for _, e := range entries {
		if !e.IsDir() {
			list = append(list, Wrong{Name: e.Name(), Problem: "a wrong solution is a folder wrong/<kebab-name>/ holding one .go file"})
			continue
		}
		list = append(list, l.readWrong(e.Name(), editable))
	}
	return list, nil
}

// replacementFolders lists the entries of dir (wrong/ or broken/: folders of files that replace
// learner files) and the learner files they may replace. No dir is no entries, not an error.
func (l Lesson) replacementFolders(dir string) ([]os.DirEntry, []string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	editable, err := l.EditableFiles()
	return entries, editable, err
}

// readWrong validates one wrong/<name>/ folder and reads its header.
func (l Lesson) readWrong(name string, editable []string) Wrong {
	w := Wrong{Name: name}
	if !kebabName.MatchString(name) {
		w.Problem = "the folder name is not kebab-case (lower-case words joined by -)"
		return w
	}
	files, _ := filepath.Glob(filepath.Join(l.WrongDir(), name, "*"))
	if len(files) != 1 || !strings.HasSuffix(files[0], ".go") {
		w.Problem = fmt.Sprintf("the folder must hold exactly one .go file, it holds %d files", len(files))
		return w
	}
	w.Path, w.File = files[0], filepath.Base(files[0])
	if !slices.Contains(editable, w.File) {
		w.Problem = fmt.Sprintf("%s is not a learner-editable file of lesson %s (those are %s)", w.File, l.Number, strings.Join(editable, ", "))
		return w
	}
	if err := w.readHeader(); err != nil {
		w.Problem = err.Error()
		return w
	}
	if file, _ := l.TODO(w.Exercise); file == "" {
		w.Problem = fmt.Sprintf("lesson %s has no exercise %d (no TODO(exercise %d) marker in its learner files)", l.Number, w.Exercise, w.Exercise)
	}
	return w
}

// readHeader checks the file's opening: "// Wrong (exercise N): <mistake>.", at least one more
// comment line saying why, a blank line, then the package clause.
func (w *Wrong) readHeader() error {
	f, err := os.Open(w.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	var lines []string
	for scanner.Scan() && len(lines) < 40 {
		lines = append(lines, scanner.Text())
	}
	const want = "the first line must be `// Wrong (exercise N): <the mistake, one sentence>.`"
	if len(lines) == 0 {
		return fmt.Errorf("empty file: %s", want)
	}
	m := wrongHeader.FindStringSubmatch(lines[0])
	if m == nil {
		return fmt.Errorf("%s, it is %q", want, lines[0])
	}
	w.Exercise, _ = strconv.Atoi(m[1])
	w.Mistake = m[2]
	i := 1
	for i < len(lines) && strings.HasPrefix(lines[i], "//") {
		i++
	}
	switch {
	case i == 1:
		return fmt.Errorf("after the first line, more // lines must say why the mistake is wrong")
	case i+1 >= len(lines) || lines[i] != "" || !strings.HasPrefix(lines[i+1], "package "):
		return fmt.Errorf("the header comment must be followed by a blank line and the package clause")
	}
	return nil
}

// WrongOverlay is the solution overlay with the wrong file in place of its solution file.
func (l Lesson) WrongOverlay(w Wrong) (map[string]string, error) {
	overlay, err := l.SolutionOverlay()
	if err != nil {
		return nil, err
	}
	overlay[filepath.Join(l.Dir, w.File)] = w.Path
	return overlay, nil
}
