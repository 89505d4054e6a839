package generated

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/subprocess"
)

// Scaffolded lessons: lesson 11 is a project that kubebuilder made, committed as the pinned CLI
// wrote it. make test runs the CLI again with the README's flags in a scratch folder and
// compares, so the lesson can never drift from the tool: every file the CLI writes must be
// committed as written, except the learner's files (the solution replaces them) and the files
// the workshop owns.

// ScaffoldDrift runs the lesson's scaffolding commands in a scratch folder and lists every
// difference from the committed lesson, as "path: why". Empty means the lesson is what the
// pinned CLI makes.
func ScaffoldDrift(ctx context.Context, l lessons.Lesson, scratch string) ([]string, error) {
	dir := filepath.Join(scratch, "scaffold-"+l.Name)
	if err := Scaffold(ctx, l, dir, nil); err != nil {
		return nil, err
	}
	excepted, err := scaffoldExceptions(l)
	if err != nil {
		return nil, err
	}
	return compareScaffold(l, dir, excepted)
}

// Scaffold runs the lesson's scaffolding commands, as make test checks them, in dir (made
// afresh), with env added to this process's environment. The CLI fetches the project's modules
// (kubebuilder runs go get and go mod tidy): make prepare and make kit run it for that.
func Scaffold(ctx context.Context, l lessons.Lesson, dir string, env []string) error {
	s := l.Manifest.Scaffold
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	binary, err := l.BuildTool(ctx, s.Tool)
	if err != nil {
		return err
	}
	for i, args := range s.Commands {
		if i < len(s.Check) {
			args = append(slices.Clone(args), s.Check[i]...)
		}
		cmd := subprocess.Command(ctx, binary, args...)
		// The scratch folder may lie inside the workspace: the scaffold is a module of its own.
		cmd.Dir, cmd.Env = dir, append(append(os.Environ(), "GOWORK=off"), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s %s failed in %s: %v\n%s", lessons.ToolName(s.Tool), strings.Join(args, " "), dir, err, out)
		}
	}
	return nil
}

// scaffoldExceptions are the files the comparison leaves out: the learner's Go files (every one
// the solution replaces) and the workshop's patterns. The manifests the learner regenerates
// (config/) stay in: the starter keeps the CLI's until the learner runs make manifests.
func scaffoldExceptions(l lessons.Lesson) (func(rel string) bool, error) {
	learner := map[string]bool{}
	files, err := l.EditableFiles()
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		learner[filepath.ToSlash(f)] = true
	}
	patterns := l.Manifest.Scaffold.Workshop
	return func(rel string) bool {
		if learner[rel] {
			return true
		}
		for _, p := range patterns {
			if strings.HasSuffix(p, "/") && strings.HasPrefix(rel, p) {
				return true
			}
			if ok, _ := filepath.Match(p, rel); ok {
				return true
			}
		}
		return false
	}, nil
}

// compareScaffold compares the CLI's files under dir with the lesson's, both ways.
func compareScaffold(l lessons.Lesson, dir string, excepted func(string) bool) ([]string, error) {
	made, err := listFiles(dir)
	if err != nil {
		return nil, err
	}
	committed, err := listFiles(l.Dir)
	if err != nil {
		return nil, err
	}
	var drift []string
	where := "lessons/" + l.Name + "/"
	for _, rel := range made {
		if excepted(rel) {
			continue
		}
		want, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			return nil, err
		}
		want, problem := patch(l, rel, want)
		if problem != "" {
			drift = append(drift, where+rel+": "+problem)
			continue
		}
		have, err := os.ReadFile(filepath.Join(l.Dir, rel))
		switch {
		case os.IsNotExist(err):
			drift = append(drift, where+rel+": the CLI writes it, the lesson lacks it")
		case err != nil:
			return nil, err
		case slices.Contains(l.Manifest.Scaffold.Appended, rel):
			if !bytes.HasPrefix(have, want) {
				drift = append(drift, where+rel+": does not start with the CLI's file (the workshop may only add at its end)")
			}
		case !bytes.Equal(want, have):
			drift = append(drift, where+rel+": differs from the CLI's")
		}
	}
	for _, rel := range committed {
		if !excepted(rel) && !slices.Contains(made, rel) {
			drift = append(drift, where+rel+": the CLI does not write it; list it in lesson.yaml's scaffold.workshop if the workshop owns it")
		}
	}
	return drift, nil
}

// patch applies lesson.yaml's patches of the file rel to the CLI's content, or says why one
// cannot be: its old text must occur exactly once, or the patch would hide what the CLI changed.
func patch(l lessons.Lesson, rel string, content []byte) ([]byte, string) {
	for _, p := range l.Manifest.Scaffold.Patched {
		if p.File != rel {
			continue
		}
		if n := bytes.Count(content, []byte(p.Old)); n != 1 {
			return nil, fmt.Sprintf("the CLI writes the workshop's patched text %q %d times, not once: see lesson.yaml's scaffold.patched", p.Old, n)
		}
		content = bytes.Replace(content, []byte(p.Old), []byte(p.New), 1)
	}
	return content, ""
}

// listFiles lists the files under root, relative and slash-separated, skipping what git ignores
// in a scaffold (bin/, the tools' downloads) and never commits.
func listFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (rel == "bin" || rel == ".git") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			files = append(files, rel)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}
