package lessons

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Wrong is one wrong solution: solutions/NN-topic/wrong/<name>.patch, a small unified diff of one
// solution file that makes one realistic mistake, after a header that says which and why:
//
//	Wrong (exercise 3): it asks the mapper once and never resets it, so ...
//	The deferred mapper reads discovery once and keeps the answer; ...
//
//	--- a/mapper.go
//	+++ b/mapper.go
//	@@ -33,10 +33,6 @@ func MapKind(...
//
// Its proof is that the specs of its exercise fail when the patched file replaces the solution's.
// A patch that no longer applies (the reference moved on) is reported, never skipped.
type Wrong struct {
	Name     string // the patch's kebab-case name, e.g. "no-reset-on-a-miss"
	File     string // the learner file it changes, e.g. "mapper.go"
	Patch    string // absolute path of the .patch file
	Exercise int    // from its header line
	Mistake  string // the header's sentence, without the trailing dot
	Why      string // the header's other lines
	Problem  string // why it cannot be proven (bad name or header); "" when it is well-formed
}

// PatchExt names a wrong solution's file.
const PatchExt = ".patch"

var (
	wrongHeader = regexp.MustCompile(`^Wrong \(exercise (\d+)\): (.+)\.$`)
	kebabName   = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	patchedFile = regexp.MustCompile(`^--- a/(\S+)$`) // a learner file: Go, or one lesson.yaml's files lists
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
		if e.Name() == CaughtByFile {
			continue
		}
		name, isPatch := strings.CutSuffix(e.Name(), PatchExt)
		if e.IsDir() || !isPatch {
			list = append(list, Wrong{Name: e.Name(), Problem: "a wrong solution is a file wrong/<kebab-name>.patch (docs/authoring.md)"})
			continue
		}
		list = append(list, l.readWrong(name, editable))
	}
	return list, nil
}

// replacementFolders lists the entries of dir (wrong/ or broken/) and the learner files they
// may change. No dir is no entries, not an error.
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

// readWrong validates one wrong/<name>.patch and reads its header.
func (l Lesson) readWrong(name string, editable []string) Wrong {
	w := Wrong{Name: name, Patch: filepath.Join(l.WrongDir(), name+PatchExt)}
	if !kebabName.MatchString(name) {
		w.Problem = "the name is not kebab-case (lower-case words joined by -)"
		return w
	}
	data, err := os.ReadFile(w.Patch)
	if err != nil {
		w.Problem = err.Error()
		return w
	}
	if err := w.readHeader(string(data)); err != nil {
		w.Problem = err.Error()
		return w
	}
	if !slices.Contains(editable, w.File) {
		w.Problem = fmt.Sprintf("it changes %s, which is not a learner-editable file of lesson %s (those are %s)", w.File, l.Number, strings.Join(editable, ", "))
		return w
	}
	if file, _ := l.TODO(w.Exercise); file == "" {
		w.Problem = fmt.Sprintf("lesson %s has no exercise %d (no TODO(exercise %d) marker in its learner files)", l.Number, w.Exercise, w.Exercise)
	}
	return w
}

// readHeader checks the patch's opening: "Wrong (exercise N): <mistake>.", at least one more line
// saying why, a blank line, then the diff of exactly one file.
func (w *Wrong) readHeader(text string) error {
	lines := strings.Split(text, "\n")
	const want = "the first line must be `Wrong (exercise N): <the mistake, one sentence>.`"
	m := wrongHeader.FindStringSubmatch(lines[0])
	if m == nil {
		return fmt.Errorf("%s, it is %q", want, lines[0])
	}
	w.Exercise, _ = strconv.Atoi(m[1])
	w.Mistake = m[2]
	i := 1
	for i < len(lines) && strings.TrimSpace(lines[i]) != "" && !strings.HasPrefix(lines[i], "--- ") {
		i++
	}
	if i == 1 {
		return fmt.Errorf("after the first line, more lines must say why the mistake is wrong (what breaks in a real controller)")
	}
	w.Why = strings.Join(lines[1:i], "\n")
	if i >= len(lines) || lines[i] != "" {
		return fmt.Errorf("the header must end with a blank line before the diff")
	}
	var files []string
	for _, line := range lines[i:] {
		if m := patchedFile.FindStringSubmatch(line); m != nil {
			files = append(files, m[1])
		}
	}
	if len(files) != 1 {
		return fmt.Errorf("the diff must change exactly one file of the lesson (--- a/<file>), it changes %d", len(files))
	}
	w.File = files[0]
	return nil
}

// Apply writes the solution's copy of the wrong solution's file, with the patch applied, into
// dir and returns its path. git applies it (git is a prerequisite of the workshop), outside any
// repository, so the paths in the patch are the file's name and nothing else. A patch whose
// context no longer matches the solution fails, saying which reference moved.
func (l Lesson) Apply(w Wrong, dir string) (string, error) {
	if w.Problem != "" {
		return "", fmt.Errorf("%s", w.Problem)
	}
	work, err := os.MkdirTemp("", "wrong-"+w.Name+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	reference := filepath.Join(l.SolutionDir, w.File)
	data, err := os.ReadFile(reference)
	if err != nil {
		return "", err
	}
	if err := writeFile(filepath.Join(work, w.File), data); err != nil {
		return "", err
	}
	cmd := exec.Command("git", "apply", "--whitespace=nowarn", w.Patch)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(work))
	if out, err := cmd.CombinedOutput(); err != nil {
		rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(l.SolutionDir)), reference)
		return "", fmt.Errorf("the patch no longer applies to %s (the reference moved on since it was written): remake it with make wrong-edit LESSON=%s WRONG=%s, then make wrong-save; git says: %s",
			rel, l.Number, w.Name, strings.TrimSpace(string(out)))
	}
	patched, err := os.ReadFile(filepath.Join(work, w.File))
	if err != nil {
		return "", err
	}
	if bytes.Equal(patched, data) {
		return "", fmt.Errorf("the patch changes nothing in %s", w.File)
	}
	out := filepath.Join(dir, w.Name, w.File)
	return out, writeFile(out, patched)
}

// writeFile writes data to path, making its folder first.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// WrongOverlay is the solution overlay with the wrong file, applied into dir, in place of its
// solution file.
func (l Lesson) WrongOverlay(w Wrong, dir string) (map[string]string, error) {
	overlay, err := l.SolutionOverlay()
	if err != nil {
		return nil, err
	}
	path, err := l.Apply(w, dir)
	if err != nil {
		return nil, err
	}
	overlay[filepath.Join(l.Dir, w.File)] = path
	return overlay, nil
}

// WrongPatch makes the text of a wrong solution: header (its lines, without a trailing blank
// line), then the unified diff from the reference of file (a learner file's path in the lesson)
// to edited.
func (l Lesson) WrongPatch(header, file, edited string) ([]byte, error) {
	work, err := os.MkdirTemp("", "wrong-patch-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	for side, from := range map[string]string{"a": filepath.Join(l.SolutionDir, file), "b": edited} {
		data, err := os.ReadFile(from)
		if err != nil {
			return nil, err
		}
		if err := writeFile(filepath.Join(work, side, file), data); err != nil {
			return nil, err
		}
	}
	cmd := exec.Command("git", "diff", "--no-index", "--no-prefix", "--no-color", "-U3", "a/"+file, "b/"+file)
	cmd.Dir = work
	out, err := cmd.Output()
	if err == nil {
		return nil, fmt.Errorf("%s is the same as the reference: make one realistic mistake in it first", edited)
	}
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		return nil, fmt.Errorf("git diff: %v", err)
	}
	diff := string(out)
	diff = diff[strings.Index(diff, "--- "):] // drop git's "diff --git" and "index" lines
	return []byte(strings.TrimRight(header, "\n") + "\n\n" + diff), nil
}
