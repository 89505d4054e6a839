// Package generated keeps a lesson's generated and scaffolded files what their pinned tools make
// of them: it runs the generators lesson.yaml declares (make generate), lists the committed files
// that are stale, generates a wrong solution's own manifests for its overlay (unless it changes
// only function bodies: bodies.go), and compares a scaffolded lesson with what its CLI writes
// (scaffold.go).
package generated

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/subprocess"
	"workshop.local/scripts/project"
)

// Generated files: a lesson whose lesson.yaml declares `generate` (lesson 10: controller-gen
// writes zz_generated.deepcopy.go and config/crd/ from the learner's API types) commits what it
// generates. Its solution commits the manifests its own types generate, under the same paths in
// solutions/NN-topic/ (the deepcopy functions do not depend on markers, so the lesson's serve
// both). Go's -overlay replaces embedded files too, so the specs see the manifest of the code
// they run. A wrong solution's manifest is generated on the fly (Overlay).

// Generate runs the lesson's generators on a copy of its package with overlay applied (nil:
// the files as they are), writing into out, and returns the generated files relative to out.
// The copy, in out/src with the lesson's go.mod and go.sum, is built outside the workspace
// (GOWORK=off): a generator reads files from disk and knows nothing of -overlay. What a step
// writes among the copied sources (deepcopy-gen's zz_generated.deepcopy.go) is moved to
// out/generated with the rest.
func Generate(ctx context.Context, l lessons.Lesson, overlay map[string]string, out string) ([]string, error) {
	src := filepath.Join(out, "src")
	if err := os.RemoveAll(out); err != nil {
		return nil, err
	}
	copied, err := copyPackage(l, src, overlay)
	if err != nil {
		return nil, err
	}
	gen := filepath.Join(out, "generated")
	if err := Run(ctx, l, src, gen, true); err != nil {
		return nil, err
	}
	if err := moveNewFiles(src, gen, copied); err != nil {
		return nil, err
	}
	var files []string
	err = filepath.WalkDir(gen, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(gen, path)
			files = append(files, rel)
		}
		return err
	})
	if os.IsNotExist(err) { // the generators wrote nothing
		err = nil
	}
	sort.Strings(files)
	return files, err
}

// moveNewFiles moves every file under src that is not one of copied (relative paths) to the
// same path under gen.
func moveNewFiles(src, gen string, copied map[string]bool) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if copied[rel] {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(gen, rel)), 0o755); err != nil {
			return err
		}
		return os.Rename(path, filepath.Join(gen, rel))
	})
}

// copyPackage copies go.mod, go.sum and the lesson's non-test Go files (its subpackages too,
// but not the tools module, and not the generated zz_generated* files: the generators make them
// afresh) to dst, each replaced by its overlay when it has one, and returns the paths it copied,
// relative to dst. The copy's go.mod points its relative replaces (the harness, the scripts
// module) back at the workspace.
func copyPackage(l lessons.Lesson, dst string, overlay map[string]string) (map[string]bool, error) {
	copied := map[string]bool{}
	err := filepath.WalkDir(l.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(l.Dir, path)
		if d.IsDir() {
			if rel == "tools" {
				return filepath.SkipDir // a module of its own
			}
			return nil
		}
		name := d.Name()
		goSource := strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, "zz_generated")
		if rel != "go.mod" && rel != "go.sum" && !goSource {
			return nil
		}
		from := path
		if o, ok := overlay[path]; ok {
			from = o
		}
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if rel == "go.mod" {
			if data, err = project.AbsoluteReplaces(data, l.Dir); err != nil {
				return err
			}
		}
		copied[rel] = true
		return writeFile(filepath.Join(dst, rel), data)
	})
	return copied, err
}

// Overlay regenerates the lesson's files for the code overlay puts in place and adds
// the generated manifests to it, and the generated Go files where the solution commits its own
// (elsewhere they must not differ, see Stale).
// It reports whether those manifests differ from the solution's: code with an API of its own
// (a wrong types file) installs a CRD that no other run may share. It changes nothing for a
// lesson without `make generate`.
func Overlay(ctx context.Context, l lessons.Lesson, overlay map[string]string, out string) (ownManifests bool, err error) {
	if !l.Generates() || l.GeneratesFromSolution() { // from the solution: nothing of its own to overlay
		return false, nil
	}
	if onlyBodiesChanged(l, overlay) { // it generates the solution's files, which overlay holds
		return false, nil
	}
	files, err := Generate(ctx, l, overlay, out)
	if err != nil {
		return false, err
	}
	for _, f := range files {
		generated := filepath.Join(out, "generated", f)
		manifest := strings.HasPrefix(f, lessons.GeneratedDir+string(filepath.Separator))
		// Generated Go code is overlaid only where it is the learner's to regenerate (the
		// solution commits its own: lesson 11's deepcopy functions follow its fields).
		if !manifest && !exists(filepath.Join(l.SolutionDir, f)) {
			continue
		}
		overlay[filepath.Join(l.Dir, f)] = generated
		if manifest && !isRole(generated) && len(differs(generated, filepath.Join(l.SolutionDir, f), f, "")) > 0 {
			ownManifests = true
		}
	}
	return ownManifests, nil
}

// isRole says whether a generated manifest is a namespaced RBAC Role (lesson 11's specs copy its
// rules into each spec's namespace, so no other run shares it). Any other manifest, a CRD
// above all, is cluster-wide.
func isRole(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && bytes.Contains(data, []byte("\nkind: Role\n"))
}

// Stale generates the lesson's files, for the starter (unless they are generated from
// the solution) and for the solution, and lists every committed file that differs from what its
// types generate (or is missing), as "path: why". Empty means current.
func Stale(ctx context.Context, l lessons.Lesson, scratch string) ([]string, error) {
	var stale []string
	if !l.GeneratesFromSolution() {
		starter, err := Generate(ctx, l, nil, filepath.Join(scratch, "generate-"+l.Name+"-starter"))
		if err != nil {
			return nil, err
		}
		for _, f := range starter {
			if l.Scaffolded() && strings.HasPrefix(f, lessons.GeneratedDir+string(filepath.Separator)) {
				continue // the CLI's manifests until the learner runs make manifests: ScaffoldDrift compares them
			}
			got := filepath.Join(scratch, "generate-"+l.Name+"-starter", "generated", f)
			stale = append(stale, differs(got, filepath.Join(l.Dir, f), "lessons/"+l.Name+"/"+f, "run make generate LESSON="+l.Number)...)
		}
	}
	overlay, err := l.SolutionOverlay()
	if err != nil {
		return nil, err
	}
	out := filepath.Join(scratch, "generate-"+l.Name+"-solution")
	solution, err := Generate(ctx, l, overlay, out)
	if err != nil {
		return nil, err
	}
	for _, f := range solution {
		got := filepath.Join(out, "generated", f)
		committed, where := filepath.Join(l.SolutionDir, f), "solutions/"+l.Name+"/"+f
		if !strings.HasPrefix(f, lessons.GeneratedDir+string(filepath.Separator)) && !exists(committed) {
			committed, where = filepath.Join(l.Dir, f), "lessons/"+l.Name+"/"+f+" (generated from the solution's types)"
		}
		fix := "generate it from the solution's types (see generated.Generate) and commit it"
		if l.GeneratesFromSolution() {
			fix = "run make generate LESSON=" + l.Number
		}
		stale = append(stale, differs(got, committed, where, fix)...)
	}
	return stale, nil
}

// differs says why committed is not generated's copy, or nothing.
func differs(generated, committed, name, fix string) []string {
	want, err := os.ReadFile(generated)
	if err != nil {
		return []string{name + ": " + err.Error()}
	}
	have, err := os.ReadFile(committed)
	switch {
	case os.IsNotExist(err):
		return []string{name + ": missing; " + fix}
	case err != nil:
		return []string{name + ": " + err.Error()}
	case !bytes.Equal(want, have):
		return []string{name + ": stale; " + fix}
	}
	return nil
}

// Run runs the lesson's generators (make generate) on the package in src, writing into
// out. Outside the workspace (isolated), src is a copy with its own go.mod: GOWORK=off. A lesson
// whose code is generated from its solution (GeneratesFromSolution) is regenerated from it when
// not isolated: src is then ignored, and the solution's generated files are written under out.
func Run(ctx context.Context, l lessons.Lesson, src, out string, isolated bool) error {
	g := l.Manifest.Generate
	toolsDir, _ := l.ToolsModule()
	if g == nil || toolsDir == "" {
		return fmt.Errorf("lesson %s generates nothing (no generate in %s, or no tools/go.mod)", l.Number, lessons.ManifestFile)
	}
	if (l.GeneratesFromSolution() || l.Scaffolded()) && !isolated {
		// lesson 14: the starter has no tags to generate from; lesson 11: the starter keeps the
		// CLI's files until the learner runs make manifests generate. Either way, what make
		// generate keeps current is the solution's.
		return generateFromSolution(ctx, l, out)
	}
	for _, step := range g.Steps {
		if err := runStep(ctx, l, step, src, out, isolated); err != nil {
			return err
		}
	}
	return nil
}

// runStep builds one generator from the tools module and runs it in src.
func runStep(ctx context.Context, l lessons.Lesson, step lessons.Step, src, out string, isolated bool) error {
	binary, err := l.BuildTool(ctx, step.Tool)
	if err != nil {
		return err
	}
	lessonDir, err := filepath.Abs(l.Dir)
	if err != nil {
		return err
	}
	args := make([]string, len(step.Args))
	for i, a := range step.Args {
		args[i] = strings.NewReplacer("{out}", out, "{lesson}", lessonDir).Replace(a)
	}
	run := subprocess.Command(ctx, binary, args...)
	run.Dir, run.Env = src, os.Environ()
	if isolated {
		run.Env = append(run.Env, "GOWORK=off")
	}
	if b, err := run.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s in lesson %s failed: %v\n%s", lessons.ToolName(step.Tool), strings.Join(args, " "), l.Number, err, b)
	}
	return nil
}

// generateFromSolution generates the lesson's files from its solution in a scratch folder and
// writes them under out: the Go code to out/<path> (the lesson), the manifests to the
// solution's folder, as Stale compares them.
func generateFromSolution(ctx context.Context, l lessons.Lesson, out string) error {
	overlay, err := l.SolutionOverlay()
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "generate-"+l.Name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	files, err := Generate(ctx, l, overlay, scratch)
	if err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(scratch, "generated", f))
		if err != nil {
			return err
		}
		to := filepath.Join(out, f)
		if strings.HasPrefix(f, lessons.GeneratedDir+string(filepath.Separator)) || exists(filepath.Join(l.SolutionDir, f)) {
			to = filepath.Join(l.SolutionDir, f)
		}
		if err := writeFile(to, data); err != nil {
			return err
		}
	}
	return nil
}

// exists says whether path names a file.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// writeFile writes data to path, making its folder first.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
