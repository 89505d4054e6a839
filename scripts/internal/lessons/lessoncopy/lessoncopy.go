// Package lessoncopy makes a scratch workspace that holds a copy of one lesson, its folder and
// its solution's, where the workshop tool can run as a learner would run it (check, hint, watch,
// reset) without touching the real workspace. Every other module of the workspace is used where
// it is, so the build cache serves all but the copied lesson, which is the only one compiled.
package lessoncopy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"workshop.local/scripts/internal/lessons"
)

// Make copies lesson l of the workspace at root into dir (which it creates), with a go.work
// and lessons/specs.sha256 of its own, and returns the copy as a lesson of that workspace.
func Make(root, dir string, l lessons.Lesson) (lessons.Lesson, error) {
	for _, sub := range []string{filepath.Join("lessons", l.Name), filepath.Join("solutions", l.Name)} {
		if err := copyTree(filepath.Join(root, sub), filepath.Join(dir, sub)); err != nil {
			return lessons.Lesson{}, err
		}
	}
	if err := pointReplacesAt(root, filepath.Join(dir, "lessons", l.Name, "go.mod"), filepath.Join(root, "lessons", l.Name)); err != nil {
		return lessons.Lesson{}, err
	}
	if err := writeWork(root, dir, l); err != nil {
		return lessons.Lesson{}, err
	}
	if err := CopyFile(filepath.Join(root, "go.work.sum"), filepath.Join(dir, "go.work.sum")); err != nil {
		return lessons.Lesson{}, err
	}
	return writeSums(dir, l)
}

// copyTree copies a folder as it is (cp -R: modes and symbolic links kept).
func copyTree(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if out, err := exec.Command("cp", "-R", from, to).CombinedOutput(); err != nil {
		return fmt.Errorf("copying %s: %v: %s", from, err, out)
	}
	return nil
}

// CopyFile copies one file's content to another path, making its folder first: a file of the
// real workspace, or one made for the copy, put in place there.
func CopyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// pointReplacesAt rewrites the copied go.mod's replacements by a relative path (the harness and
// the scripts module, beside the lesson in the real workspace) to the folders they name there.
func pointReplacesAt(root, goMod, originalDir string) error {
	data, err := os.ReadFile(goMod)
	if err != nil {
		return err
	}
	mod, err := modfile.Parse(goMod, data, nil)
	if err != nil {
		return err
	}
	for _, r := range mod.Replace {
		if modfile.IsDirectoryPath(r.New.Path) && !filepath.IsAbs(r.New.Path) {
			target := filepath.Join(originalDir, filepath.FromSlash(r.New.Path))
			if err := mod.AddReplace(r.Old.Path, r.Old.Version, target, ""); err != nil {
				return err
			}
		}
	}
	out, err := mod.Format()
	if err != nil {
		return err
	}
	return os.WriteFile(goMod, out, 0o644)
}

// writeWork writes a go.work that uses the copied lesson and every other module of the real
// workspace where it is: the same modules give the same versions.
func writeWork(root, dir string, l lessons.Lesson) error {
	data, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		return err
	}
	work, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "go %s\n\nuse (\n", work.Go.Version)
	copied := filepath.Join("lessons", l.Name)
	for _, u := range work.Use {
		path := filepath.Join(root, u.Path)
		if filepath.Clean(u.Path) == copied {
			path = "./" + filepath.ToSlash(copied)
		}
		fmt.Fprintf(&b, "\t%s\n", path)
	}
	b.WriteString(")\n")
	return os.WriteFile(filepath.Join(dir, "go.work"), []byte(b.String()), 0o644)
}

// writeSums writes the copy's lessons/specs.sha256: the lesson's specs as copied (the harness
// stays the real workspace's, which the copy does not hold), so make check counts its results.
func writeSums(dir string, l lessons.Lesson) (lessons.Lesson, error) {
	all, err := lessons.Discover(dir)
	if err != nil {
		return lessons.Lesson{}, err
	}
	sums, err := lessons.RenderSums(dir, all)
	if err != nil {
		return lessons.Lesson{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, lessons.SumsFile), sums, 0o644); err != nil {
		return lessons.Lesson{}, err
	}
	for _, c := range all {
		if c.Name == l.Name {
			return c, nil
		}
	}
	return lessons.Lesson{}, fmt.Errorf("the copy of lesson %s was not found in %s", l.Name, dir)
}
