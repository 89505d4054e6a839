// Package project copies a lesson that is a project of its own (lesson 11, a kubebuilder
// project) to a scratch folder with a `go build -overlay` file applied. The tools overlay the
// solution or a wrong solution on the learner's files without touching them, and Go's builds
// honour that; but programs that read the project from disk do not: controller-gen, kustomize,
// make, envtest loading config/crd/bases. They run in the copy instead, where the overlay's
// files are real files. The copy stays a module of the workspace: its own go.work lists it in
// the lesson's place, so it builds with the workspace's pinned libraries and warm build cache.
//
// Both the lesson's specs (through lessons/internal/harness) and the tools (make test's proof
// of the learner's own envtest suite) use it, so it lives outside scripts/internal.
package project

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// OverlayEnv names the environment variable through which the tools tell a lesson's specs the
// -overlay file their binary was built with (unset: the learner's own files).
const OverlayEnv = "WORKSHOP_OVERLAY"

// Overlay is a `go build -overlay` file's map: a file's path to its replacement, "" to delete it.
type Overlay map[string]string

// ReadOverlay reads the overlay file at path; "" is no overlay.
func ReadOverlay(path string) (Overlay, error) {
	if path == "" {
		return Overlay{}, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file struct{ Replace Overlay }
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file.Replace, nil
}

// FromEnv is the overlay the tools named in OverlayEnv, or none.
func FromEnv() (Overlay, error) { return ReadOverlay(os.Getenv(OverlayEnv)) }

// ReadFile reads a file as a build with the overlay sees it: its replacement when it has one.
func (o Overlay) ReadFile(path string) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if replacement, ok := o[abs]; ok {
		if replacement == "" {
			return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
		}
		return os.ReadFile(replacement)
	}
	return os.ReadFile(abs)
}

// Copy writes the project in lessonDir to dst (made afresh) as a build with the overlay sees it,
// leaving out bin/ (the tools a Makefile installs), and writes dst/go.work: the workspace's
// go.work with the lesson's entry pointing at dst. It returns the environment a command run in
// dst needs (GOWORK).
func Copy(lessonDir string, o Overlay, dst string) ([]string, error) {
	lessonDir, err := filepath.Abs(lessonDir)
	if err != nil {
		return nil, err
	}
	if err := os.RemoveAll(dst); err != nil {
		return nil, err
	}
	if err := copyTree(lessonDir, dst); err != nil {
		return nil, err
	}
	for path, replacement := range o.underOriginalNames() {
		rel, err := filepath.Rel(lessonDir, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue // another lesson's file
		}
		if err := place(filepath.Join(dst, rel), replacement); err != nil {
			return nil, err
		}
	}
	if err := absoluteReplaces(filepath.Join(dst, "go.mod"), lessonDir); err != nil {
		return nil, err
	}
	work, err := writeWork(lessonDir, dst)
	if err != nil {
		return nil, err
	}
	return []string{"GOWORK=" + work}, nil
}

// absoluteReplaces rewrites the copy's go.mod replaces to local folders (the harness, the
// scripts module) as absolute paths from the lesson's folder: relative to the copy they would
// point nowhere, and Go refuses a replace of a workspace module by another folder.
func absoluteReplaces(gomod, lessonDir string) error {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return err
	}
	if data, err = AbsoluteReplaces(data, lessonDir); err != nil {
		return err
	}
	return os.WriteFile(gomod, data, 0o644)
}

// AbsoluteReplaces rewrites a go.mod's replaces to local folders as absolute paths from dir: a
// copy of a lesson's module elsewhere (here, and the generators' scratch module) still finds
// the harness and the scripts module.
func AbsoluteReplaces(gomod []byte, dir string) ([]byte, error) {
	f, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		return nil, err
	}
	for _, r := range f.Replace {
		if modfile.IsDirectoryPath(r.New.Path) && !filepath.IsAbs(r.New.Path) {
			if err := f.AddReplace(r.Old.Path, r.Old.Version, filepath.Join(dir, r.New.Path), ""); err != nil {
				return nil, err
			}
		}
	}
	return f.Format()
}

// overlaidSuffix is how the tools rename a replaced Go file in an overlay (lessons.OverlaidName):
// the original deleted, the replacement added as name_overlaid.go, so a binary's recorded file
// names are never the starter's.
const overlaidSuffix = "_overlaid.go"

// underOriginalNames undoes that renaming for a copy on disk: there a generator run in the
// copy (make generate writes zz_generated.deepcopy.go) would otherwise find the file gone and
// write it again beside its renamed replacement, declaring everything twice.
func (o Overlay) underOriginalNames() Overlay {
	files := Overlay{}
	for path, replacement := range o {
		if original := strings.TrimSuffix(path, overlaidSuffix) + ".go"; strings.HasSuffix(path, overlaidSuffix) {
			if deleted, ok := o[original]; ok && deleted == "" {
				files[original] = replacement
				continue
			}
		}
		if _, renamed := o[strings.TrimSuffix(path, ".go")+overlaidSuffix]; replacement == "" && renamed {
			continue // placed under its own name above
		}
		files[path] = replacement
	}
	return files
}

// place makes dst the replacement's copy, or removes it for "".
func place(dst, replacement string) error {
	if replacement == "" {
		if err := os.Remove(dst); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	data, err := os.ReadFile(replacement)
	if err != nil {
		return err
	}
	return writeFile(dst, data, 0o644)
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel == "bin" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dst, rel), data, info.Mode().Perm())
	})
}

func writeFile(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, mode)
}

// writeWork writes dst/go.work from the workspace's (two folders above the lesson): every entry
// absolute, the lesson's own replaced by dst, and its go.work.sum beside it.
func writeWork(lessonDir, dst string) (string, error) {
	root := filepath.Dir(filepath.Dir(lessonDir))
	data, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		return "", fmt.Errorf("the lesson is not in a workspace: %w", err)
	}
	work, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		return "", err
	}
	var dirs []string
	for _, u := range work.Use {
		dir := u.Path
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		if filepath.Clean(dir) == lessonDir {
			dir = dst
		}
		dirs = append(dirs, dir)
	}
	work.SetUse(nil)
	for _, dir := range dirs {
		if err := work.AddUse(dir, ""); err != nil {
			return "", err
		}
	}
	work.Cleanup()
	path := filepath.Join(dst, "go.work")
	if err := writeFile(path, modfile.Format(work.Syntax), 0o644); err != nil {
		return "", err
	}
	if sum, err := os.ReadFile(filepath.Join(root, "go.work.sum")); err == nil {
		if err := writeFile(filepath.Join(dst, "go.work.sum"), sum, 0o644); err != nil {
			return "", err
		}
	}
	return path, nil
}
