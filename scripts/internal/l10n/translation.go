package l10n

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

const (
	// Suffix marks a translation: X.zh-CN.md is the Simplified Chinese of X.md beside it.
	Suffix = ".zh-CN.md"
	// GlossaryFile fixes one Chinese word per term. It is written in Chinese from the start, so it
	// is no translation: it has no English source and no header.
	GlossaryFile = "docs/glossary.zh-CN.md"
)

// header is a translation's first line: the English file it was translated from (its name in
// the translation's folder) and the sha256 of that file's bytes as they were then.
var header = regexp.MustCompile(`^<!-- l10n: source=(\S+) sha256=([0-9a-f]{64}) -->$`)

// Translation is one translated file and what its first line says.
type Translation struct {
	Path   string // the translation, slash-separated from the root: lessons/01-gvk-gvr/README.zh-CN.md
	Source string // its English file, from the root: lessons/01-gvk-gvr/README.md
	SHA256 string // the English bytes it was translated from, per its header ("" without a valid one)
	// Problem says why the translation cannot be compared with its English (no valid header, no
	// English beside it); "" when it can.
	Problem string
}

// Lesson is the lesson folder a translation belongs to ("01-gvk-gvr"), or "".
func (t Translation) Lesson() string {
	parts := strings.Split(t.Path, "/")
	if len(parts) == 3 && parts[0] == "lessons" {
		return parts[1]
	}
	return ""
}

// Discover finds every translation: *.zh-CN.md in the root, and anywhere below docs/ and
// lessons/, the glossary aside. Each comes with its header read.
func Discover(root string) ([]Translation, error) {
	paths, err := translationPaths(root)
	if err != nil {
		return nil, err
	}
	var list []Translation
	for _, p := range paths {
		t, err := readTranslation(root, p)
		if err != nil {
			return nil, err
		}
		list = append(list, t)
	}
	return list, nil
}

// translationPaths lists the translations' paths from the root, in order.
func translationPaths(root string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(root, "*"+Suffix))
	if err != nil {
		return nil, err
	}
	for i, p := range paths {
		paths[i] = filepath.Base(p)
	}
	for _, dir := range []string{"docs", "lessons"} {
		found, err := walkTranslations(root, dir)
		if err != nil {
			return nil, err
		}
		paths = append(paths, found...)
	}
	paths = slices.DeleteFunc(paths, func(p string) bool { return p == GlossaryFile })
	slices.Sort(paths)
	return paths, nil
}

// walkTranslations lists the translations below root/dir (none if dir is not there).
func walkTranslations(root, dir string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(filepath.Join(root, dir), func(p string, e fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return fs.SkipDir
		}
		if err != nil || e.IsDir() || !strings.HasSuffix(p, Suffix) {
			return err
		}
		rel, err := filepath.Rel(root, p)
		found = append(found, filepath.ToSlash(rel))
		return err
	})
	return found, err
}

// readTranslation reads a translation's header and checks that it names the English file beside
// it: X.zh-CN.md is translated from X.md, nothing else.
func readTranslation(root, rel string) (Translation, error) {
	english := strings.TrimSuffix(rel, Suffix) + ".md"
	t := Translation{Path: rel, Source: english}
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return t, err
	}
	first, _, _ := strings.Cut(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	m := header.FindStringSubmatch(first)
	sum, err := fileSHA256(filepath.Join(root, english))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.Problem = fmt.Sprintf("no English %s beside it: a translation is X.zh-CN.md next to its X.md (only %s has no English)", english, GlossaryFile)
	case err != nil:
		return t, err
	case m == nil:
		t.Problem = "its first line must name the English text it was translated from: " + headerFor(english, sum)
	case m[1] != path.Base(english):
		t.Problem = fmt.Sprintf("its header names source=%s, but it is the translation of %s beside it", m[1], path.Base(english))
	default:
		t.SHA256 = m[2]
	}
	return t, nil
}

// headerFor is the first line a translation of english (translated from the bytes whose
// sha256 is sum) must have.
func headerFor(english, sum string) string {
	return fmt.Sprintf("<!-- l10n: source=%s sha256=%s -->", path.Base(english), sum)
}

// fileSHA256 is the sha256 of a file's bytes, in lowercase hex, as sha256sum prints it.
func fileSHA256(p string) (string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	return bytesSHA256(data), nil
}

func bytesSHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
