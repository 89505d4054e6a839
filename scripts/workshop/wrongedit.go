package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/variants"
)

// Authors write a wrong solution (or a broken operator: BROKEN=name in place of WRONG=name) as
// an edited copy of a solution file, then save it as a patch:
//
//	make wrong-edit LESSON=01 WRONG=no-reset-on-a-miss FILE=mapper.go   (a new one: FILE names the file)
//	  ... edit the printed file and its header.txt ...
//	make wrong-save LESSON=01 WRONG=no-reset-on-a-miss
//	make test-wrong LESSON=01 WRONG=no-reset-on-a-miss
//
// The copy lives in .cache/wrong-edit/<lesson>/<name>/ (broken-edit/ for a broken operator;
// git ignores .cache).

// editDir is where a patch is edited.
func editDir(root string, l lessons.Lesson, kind variants.PatchKind, name string) string {
	return filepath.Join(root, ".cache", kind.Dir+"-edit", l.Name, name)
}

// headerTemplate is a new patch's header.txt, per kind.
func headerTemplate(kind variants.PatchKind, exercise int) string {
	if kind == variants.BrokenKind {
		return "Broken: <the kind of behaviour it gets wrong: all a learner is told>.\n" +
			"缺陷：<the same sentence in Simplified Chinese, with the terms of docs/glossary.zh-CN.md>。\n" +
			"<How it is broken, for maintainers. One or more lines.>\n"
	}
	return fmt.Sprintf("Wrong (exercise %d): <the mistake, one sentence, in the learner's words>.\n", exercise) +
		fmt.Sprintf("错误（练习 %d）：<the same sentence in Simplified Chinese, with the terms of docs/glossary.zh-CN.md>。\n", exercise) +
		"<Why it is wrong: what breaks in a real controller. One or more lines.>\n"
}

// patchNamed is the patch the make variables name: WRONG=name, or BROKEN=name.
type patchNamed struct{ wrong, broken string }

func (n patchNamed) kindAndName() (variants.PatchKind, string) {
	if n.broken != "" {
		return variants.BrokenKind, n.broken
	}
	return variants.WrongKind, n.wrong
}

func (n *patchNamed) flags(cmd *cobra.Command) {
	stringFlag(cmd, &n.wrong, "wrong", "WRONG", "one wrong solution, by name")
	stringFlag(cmd, &n.broken, "broken", "BROKEN", "one broken operator, by name (lessons with own specs)")
}

func wrongEditCommand() *cobra.Command {
	var named patchNamed
	var file string
	return lessonCommand{
		use: "wrong-edit", make: "wrong-edit", withExercise: true, needLesson: true,
		short: "Authors: write a wrong solution's file to edit (WRONG=name, or BROKEN=name; FILE=x.go EXERCISE=N for a new one)",
		run: func(_ *cobra.Command, r resolved) (bool, error) {
			kind, name := named.kindAndName()
			if name == "" {
				return false, fmt.Errorf("which wrong solution? make wrong-edit LESSON=%s WRONG=<kebab-name> [FILE=x.go EXERCISE=N] (or BROKEN=<kebab-name> [FILE=x.go])", r.lesson.Number)
			}
			return true, editWrong(r, kind, name, file)
		},
	}.command(func(cmd *cobra.Command) {
		named.flags(cmd)
		stringFlag(cmd, &file, "file", "FILE", "the learner file a new wrong solution or broken operator changes")
	})
}

// editWrong writes the file to edit (the reference with the patch applied, or the reference
// itself for a new one) and header.txt beside it.
func editWrong(r resolved, kind variants.PatchKind, name, file string) error {
	dir := editDir(r.root, r.lesson, kind, name)
	header := headerTemplate(kind, r.exercise)
	var path string
	list, err := variants.List(r.lesson, kind)
	if err != nil {
		return err
	}
	i := indexOf(list, name)
	switch {
	case i >= 0:
		w := list[i]
		header = w.Header()
		if path, err = variants.Apply(r.lesson, w, filepath.Dir(dir)); err != nil {
			if w.Problem != "" {
				return err
			}
			// The reference moved on: start again from it, with the old header and patch at hand.
			fmt.Printf("%v\nStarting from the reference instead; redo the mistake of %s.\n", err, w.Path)
			if path, err = copyReference(r.lesson, w.File, dir); err != nil {
				return err
			}
		}
	case kind == variants.BrokenKind && file == "":
		return fmt.Errorf("lesson %s has no broken operator %q yet: name the operator file it changes (FILE=x.go)", r.lesson.Number, name)
	case kind == variants.WrongKind && (file == "" || r.exercise == 0):
		return fmt.Errorf("lesson %s has no wrong solution %q yet: name the file it changes and its exercise (FILE=x.go EXERCISE=N)", r.lesson.Number, name)
	default:
		if path, err = copyReference(r.lesson, file, dir); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "header.txt"), []byte(header), 0o644); err != nil {
		return err
	}
	fmt.Printf("Edit %s (one realistic mistake) and %s (what and why),\nthen: make wrong-save LESSON=%s %s=%s\n", path, filepath.Join(dir, "header.txt"), r.lesson.Number, kind.MakeVar, name)
	return nil
}

// copyReference copies the solution's file into dir, to be edited.
func copyReference(l lessons.Lesson, file, dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(l.SolutionDir, file))
	if err != nil {
		return "", fmt.Errorf("%s is not a solution file of lesson %s: %v", file, l.Number, err)
	}
	path := filepath.Join(dir, file)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, data, 0o644)
}

func wrongSaveCommand() *cobra.Command {
	var named patchNamed
	return lessonCommand{
		use: "wrong-save", make: "wrong-save", needLesson: true,
		short: "Authors: save the wrong solution (or broken operator) edited with wrong-edit as its patch",
		run: func(_ *cobra.Command, r resolved) (bool, error) {
			kind, name := named.kindAndName()
			return true, saveWrong(r, kind, name)
		},
	}.command(named.flags)
}

func saveWrong(r resolved, kind variants.PatchKind, name string) error {
	dir := editDir(r.root, r.lesson, kind, name)
	header, err := os.ReadFile(filepath.Join(dir, "header.txt"))
	if err != nil {
		return fmt.Errorf("nothing to save for %q: make wrong-edit LESSON=%s %s=%s first (%v)", name, r.lesson.Number, kind.MakeVar, name, err)
	}
	var files []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) != 1 {
		return fmt.Errorf("%s should hold the one edited .go file, it holds %d", dir, len(files))
	}
	file, _ := filepath.Rel(dir, files[0])
	patch, err := variants.PatchText(r.lesson, string(header), filepath.ToSlash(file), files[0])
	if err != nil {
		return err
	}
	out := filepath.Join(variants.Dir(r.lesson, kind), name+variants.PatchExt)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, patch, 0o644); err != nil {
		return err
	}
	list, _ := variants.List(r.lesson, kind)
	if i := indexOf(list, name); i >= 0 && list[i].Problem != "" {
		return fmt.Errorf("wrote %s, but it is not well-formed yet: %s", out, list[i].Problem)
	}
	rel, _ := filepath.Rel(r.root, out)
	prove := fmt.Sprintf("make test-wrong LESSON=%s WRONG=%s", r.lesson.Number, name)
	if kind == variants.BrokenKind {
		specs, _ := filepath.Rel(r.root, variants.ReferenceSpecs(r.lesson))
		prove = fmt.Sprintf("make specs LESSON=%s FILE=%s (the reference specs must catch it), then make mistakes (docs/mistakes.md lists it)", r.lesson.Number, specs)
	}
	fmt.Printf("Wrote %s. Prove it: %s\n", rel, prove)
	return nil
}

func indexOf(list []variants.Patch, name string) int {
	for i, w := range list {
		if w.Name == name {
			return i
		}
	}
	return -1
}
