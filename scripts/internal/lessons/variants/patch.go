// Package variants holds a lesson's variants of its reference solution, each a small patch of
// one solution file: wrong solutions (wrong/, each proven caught by the specs of its exercise)
// and broken operators (broken/, which a learner's own specs must catch). It reads and checks
// them, applies them over the solution, writes a new one (make wrong-edit), remembers which spec
// caught each wrong solution (caught-by.tsv), and merges the wrong solutions that change only
// function bodies into one build they share (variants.go).
package variants

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

	"workshop.local/scripts/internal/lessons"
)

// Patch is one mistake kept as a small unified diff of one reference solution file, after a
// header that says what the mistake is (in English, then in Simplified Chinese: docs/mistakes.md
// is written in both languages from it) and why it matters (in English, for maintainers):
//
//	Wrong (exercise 3): it asks the mapper once and never resets it, so ...
//	错误（练习 3）：它只询问一次映射器，从不重置，所以……
//	The deferred mapper reads discovery once and keeps the answer; ...
//
//	--- a/mapper.go
//	+++ b/mapper.go
//	@@ -33,10 +33,6 @@ func MapKind(...
//
// Two kinds share the format, the reader, the applier and the validator: a wrong solution
// (wrong/<name>.patch, proven caught by the specs of its exercise) and a broken operator
// (broken/<name>.patch, opening "Broken: <the kind of behaviour it gets wrong>.", which the
// learner's own specs must catch in a "write your own specs" exercise). A patch that no longer
// applies (the reference moved on) is reported, never skipped.
type Patch struct {
	Kind     PatchKind
	Name     string // the patch's kebab-case name, e.g. "no-reset-on-a-miss"
	File     string // the learner file it changes, e.g. "mapper.go"
	Path     string // absolute path of the .patch file
	Exercise int    // a wrong solution's, from its header; a broken operator's is the own-specs one
	Summary  string // the header's sentence without its dot: the mistake, or the behaviour it gets wrong
	Chinese  string // the same sentence in Simplified Chinese, from the header's second line, without its 。
	Why      string // the header's other lines, for maintainers
	// SameAs names the wrong solution of the same exercise that makes this same mistake, when
	// its author says so in a why line `Same mistake as <name>.` (two red-team authors wrote one
	// mistake twice): the specs cannot tell twins apart, and need not, so a check that matches
	// either names the one mistake, in SameAs's words (Signatures.Match).
	SameAs  string
	Problem string // why it cannot be proven (bad name or header); "" when it is well-formed
}

// PatchKind is one folder of patches in a lesson's solution: its name, the first two lines of
// its patches' headers (English, then Chinese), and the make variable that names one of them.
type PatchKind struct {
	Dir           string // "wrong" or "broken", below the solution folder
	Form          string // the header's first line, as an author writes it
	ChineseForm   string // its second line: the first in Simplified Chinese
	MakeVar       string // WRONG or BROKEN, for make wrong-edit
	first, second *regexp.Regexp
}

// The two kinds of patch. A wrong solution's first two lines name its exercise, the same one.
var (
	WrongKind = PatchKind{"wrong",
		"Wrong (exercise N): <the mistake, one sentence>.", "错误（练习 N）：<同一句话的简体中文>。", "WRONG",
		regexp.MustCompile(`^Wrong \(exercise (\d+)\): (.+)\.$`), regexp.MustCompile(`^错误（练习 (\d+)）：(.*\p{Han}.*)。$`)}
	BrokenKind = PatchKind{"broken",
		"Broken: <the kind of behaviour it gets wrong>.", "缺陷：<同一句话的简体中文>。", "BROKEN",
		regexp.MustCompile(`^Broken: (.+)\.$`), regexp.MustCompile(`^缺陷：(.*\p{Han}.*)。$`)}
)

// PatchExt names a patch's file.
const PatchExt = ".patch"

var (
	kebabName   = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	patchedFile = regexp.MustCompile(`^--- a/(\S+)$`) // a learner file: Go, or one lesson.yaml's files lists
	sameMistake = regexp.MustCompile(`^Same mistake as ([a-z0-9]+(?:-[a-z0-9]+)*)\.$`)
)

// Dir is where the lesson's patches of kind live.
func Dir(l lessons.Lesson, kind PatchKind) string { return filepath.Join(l.SolutionDir, kind.Dir) }

// List lists the lesson's patches of kind in name order. A malformed one is listed with its
// Problem set rather than dropped, so the proof reports it instead of ignoring it. No folder is
// no patches, not an error.
func List(l lessons.Lesson, kind PatchKind) ([]Patch, error) {
	entries, err := os.ReadDir(Dir(l, kind))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	editable, err := l.EditableFiles()
	if err != nil {
		return nil, err
	}
	var list []Patch
	for _, e := range entries {
		if e.Name() == CaughtByFile || e.Name() == SignaturesFile {
			continue
		}
		name, isPatch := strings.CutSuffix(e.Name(), PatchExt)
		if e.IsDir() || !isPatch {
			list = append(list, Patch{Kind: kind, Name: e.Name(), Problem: fmt.Sprintf("a patch here is a file %s/<kebab-name>.patch (docs/authoring.md)", kind.Dir)})
			continue
		}
		list = append(list, readPatch(l, kind, name, editable))
	}
	checkTwins(list)
	return list, nil
}

// checkTwins sets the Problem of a patch whose SameAs does not name a well-formed wrong solution
// of its exercise that is itself the one named (twins point at one patch, never in a chain).
func checkTwins(list []Patch) {
	byName := map[string]Patch{}
	for _, p := range list {
		byName[p.Name] = p
	}
	for i, p := range list {
		if p.SameAs == "" || p.Problem != "" {
			continue
		}
		twin, ok := byName[p.SameAs]
		switch {
		case p.Kind != WrongKind:
			list[i].Problem = "only a wrong solution can be the same mistake as another (Same mistake as …)"
		case !ok || twin.Problem != "" || twin.Name == p.Name:
			list[i].Problem = fmt.Sprintf("it is the same mistake as %s, which is not another well-formed wrong solution here", p.SameAs)
		case twin.Exercise != p.Exercise:
			list[i].Problem = fmt.Sprintf("it is the same mistake as %s, a mistake of exercise %d, not %d", p.SameAs, twin.Exercise, p.Exercise)
		case twin.SameAs != "":
			list[i].Problem = fmt.Sprintf("it is the same mistake as %s, which names %s in turn: name %s here", p.SameAs, twin.SameAs, twin.SameAs)
		}
	}
}

// readPatch validates one <kind>/<name>.patch and reads its header.
func readPatch(l lessons.Lesson, kind PatchKind, name string, editable []string) Patch {
	p := Patch{Kind: kind, Name: name, Path: filepath.Join(Dir(l, kind), name+PatchExt)}
	if !kebabName.MatchString(name) {
		p.Problem = "the name is not kebab-case (lower-case words joined by -)"
		return p
	}
	data, err := os.ReadFile(p.Path)
	if err != nil {
		p.Problem = err.Error()
		return p
	}
	if err := p.readHeader(string(data)); err != nil {
		p.Problem = err.Error()
		return p
	}
	if !slices.Contains(editable, p.File) {
		p.Problem = fmt.Sprintf("it changes %s, which is not a learner-editable file of lesson %s (those are %s)", p.File, l.Number, strings.Join(editable, ", "))
		return p
	}
	p.Problem = fitsItsExercise(l, &p)
	return p
}

// fitsItsExercise checks what each kind's exercise asks: a wrong solution's exercise exists; a
// broken operator's lesson has an own-specs exercise (whose number it takes), and it changes
// the operator, never a spec file, so a spec file with no specs catches none.
func fitsItsExercise(l lessons.Lesson, p *Patch) string {
	if p.Kind == BrokenKind {
		own := l.OwnSpecs()
		switch {
		case own == nil:
			return fmt.Sprintf("lesson %s has no own-specs exercise (no ownSpecs in its %s) for a broken operator to prove", l.Number, lessons.ManifestFile)
		case strings.HasSuffix(p.File, "_test.go"):
			return fmt.Sprintf("it changes %s, a spec file: a broken operator changes the operator's code", p.File)
		}
		p.Exercise = own.Exercise
		return ""
	}
	// The README's exercises, not the TODO markers: a learner may delete a marker while solving
	// its exercise, and a known mistake must still be named in that learner's workspace.
	if !slices.Contains(l.Exercises, p.Exercise) {
		return fmt.Sprintf("lesson %s has no exercise %d (no `### Exercise %d` heading in its README)", l.Number, p.Exercise, p.Exercise)
	}
	return ""
}

// readHeader checks the patch's opening: its kind's first line, the same in Chinese, at least
// one more line saying why, a blank line, then the diff of exactly one file.
func (p *Patch) readHeader(text string) error {
	lines := strings.Split(text, "\n")
	if err := p.readSummaries(lines); err != nil {
		return err
	}
	i := 2
	for i < len(lines) && strings.TrimSpace(lines[i]) != "" && !strings.HasPrefix(lines[i], "--- ") {
		i++
	}
	if i == 2 {
		return fmt.Errorf("after the first two lines, more lines must say why it is wrong (what breaks in a real controller)")
	}
	p.Why = strings.Join(lines[2:i], "\n")
	for _, line := range lines[2:i] {
		if m := sameMistake.FindStringSubmatch(line); m != nil {
			p.SameAs = m[1]
		}
	}
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
	p.File = files[0]
	return nil
}

// readSummaries reads the header's first line and its Chinese second line: the same kind and,
// for a wrong solution, the same exercise.
func (p *Patch) readSummaries(lines []string) error {
	m := p.Kind.first.FindStringSubmatch(lines[0])
	if m == nil {
		return fmt.Errorf("the first line must be `%s`, it is %q", p.Kind.Form, lines[0])
	}
	p.Summary = m[len(m)-1]
	if p.Kind == WrongKind {
		p.Exercise, _ = strconv.Atoi(m[1])
	}
	second := ""
	if len(lines) > 1 {
		second = lines[1]
	}
	zh := p.Kind.second.FindStringSubmatch(second)
	if zh == nil {
		return fmt.Errorf("the second line must be the first in Simplified Chinese, `%s` (docs/authoring.md), it is %q", p.Kind.ChineseForm, second)
	}
	if p.Kind == WrongKind && zh[1] != m[1] {
		return fmt.Errorf("the Chinese line names exercise %s, the English line exercise %s", zh[1], m[1])
	}
	p.Chinese = zh[len(zh)-1]
	return nil
}

// Header is the patch's header as its author wrote it: the first line, its Chinese, then why.
func (p Patch) Header() string {
	first := "Broken: " + p.Summary + ".\n缺陷：" + p.Chinese + "。\n"
	if p.Kind == WrongKind {
		first = fmt.Sprintf("Wrong (exercise %d): %s.\n错误（练习 %d）：%s。\n", p.Exercise, p.Summary, p.Exercise, p.Chinese)
	}
	return first + p.Why + "\n"
}

// Apply writes the solution's copy of the patch's file, with the patch applied, into dir and
// returns its path. git applies it (git is a prerequisite of the workshop), outside any
// repository, so the paths in the patch are the file's name and nothing else. A patch whose
// context no longer matches the solution fails, saying which reference moved and, in git's
// words, which hunk.
func Apply(l lessons.Lesson, p Patch, dir string) (string, error) {
	if p.Problem != "" {
		return "", fmt.Errorf("%s", p.Problem)
	}
	work, err := os.MkdirTemp("", p.Kind.Dir+"-"+p.Name+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	reference := filepath.Join(l.SolutionDir, p.File)
	data, err := os.ReadFile(reference)
	if err != nil {
		return "", err
	}
	if err := writeFile(filepath.Join(work, p.File), data); err != nil {
		return "", err
	}
	patch, err := filepath.Abs(p.Path) // git runs in work, where a relative path means nothing
	if err != nil {
		return "", err
	}
	cmd := exec.Command("git", "apply", "--whitespace=nowarn", patch)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(work))
	if out, err := cmd.CombinedOutput(); err != nil {
		rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(l.SolutionDir)), reference)
		return "", fmt.Errorf("the patch no longer applies to %s (the reference moved on since it was written): remake it with make wrong-edit LESSON=%s %s=%s, then make wrong-save; git says: %s",
			rel, l.Number, p.Kind.MakeVar, p.Name, strings.TrimSpace(string(out)))
	}
	patched, err := os.ReadFile(filepath.Join(work, p.File))
	if err != nil {
		return "", err
	}
	if bytes.Equal(patched, data) {
		return "", fmt.Errorf("the patch changes nothing in %s", p.File)
	}
	out := filepath.Join(dir, p.Name, p.File)
	return out, writeFile(out, patched)
}

// Overlay is the solution overlay with the patch's file, applied into dir, in place of
// its solution file.
func Overlay(l lessons.Lesson, p Patch, dir string) (map[string]string, error) {
	overlay, err := l.SolutionOverlay()
	if err != nil {
		return nil, err
	}
	path, err := Apply(l, p, dir)
	if err != nil {
		return nil, err
	}
	overlay[filepath.Join(l.Dir, p.File)] = path
	return overlay, nil
}

// writeFile writes data to path, making its folder first.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// PatchText makes the text of a patch: header (its lines, without a trailing blank line), then
// the unified diff from the reference of file (a learner file's path in the lesson) to edited.
func PatchText(l lessons.Lesson, header, file, edited string) ([]byte, error) {
	work, err := os.MkdirTemp("", "patch-text-")
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
