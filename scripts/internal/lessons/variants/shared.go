package variants

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"workshop.local/scripts/internal/lessons"
)

// SharedBuild is one test binary for many wrong solutions (variants.go): the solution overlay
// with each file some of them change replaced by the merged file, and each wrong solution's
// number in it, which VariantEnv passes to the binary.
type SharedBuild struct {
	Overlay  map[string]string
	Variants map[string]int // wrong solution's name -> its number in the build
}

// Env is the environment that makes a shared binary run wrong solution name.
func (s SharedBuild) Env(name string) []string {
	return []string{VariantEnv + "=" + strconv.Itoa(s.Variants[name])}
}

// Share finds the wrong solutions of list that can share one build (those that change only
// function bodies of a Go file that is not a spec) and writes the merged files into dir. The
// others, and any that does not apply, are left to a build of their own, where their problem is
// reported as it always was. Fewer than two to share is no shared build (Variants empty).
func Share(l lessons.Lesson, list []Patch, dir string) (SharedBuild, error) {
	overlay, err := l.SolutionOverlay()
	if err != nil {
		return SharedBuild{}, err
	}
	byFile := map[string][]variant{}
	references := map[string]goFile{}
	shared := SharedBuild{Overlay: overlay, Variants: map[string]int{}}
	for _, w := range list {
		if w.Problem != "" || !strings.HasSuffix(w.File, ".go") || strings.HasSuffix(w.File, "_test.go") {
			continue
		}
		reference, ok := references[w.File]
		if !ok {
			if reference, err = readGo(filepath.Join(l.SolutionDir, w.File)); err != nil {
				continue
			}
			references[w.File] = reference
		}
		path, err := Apply(l, w, filepath.Join(dir, "applied"))
		if err != nil {
			continue
		}
		wrong, err := readGo(path)
		if err != nil {
			continue
		}
		changed, err := changedBodies(reference, wrong)
		if err != nil {
			continue
		}
		number := len(shared.Variants) + 1
		shared.Variants[w.Name] = number
		byFile[w.File] = append(byFile[w.File], variant{number, wrong, changed})
	}
	if len(shared.Variants) < 2 {
		return SharedBuild{}, nil
	}
	for _, file := range slices.Sorted(maps.Keys(byFile)) {
		merged, err := mergeVariants(filepath.Base(file), references[file], byFile[file])
		if err != nil {
			return SharedBuild{}, err
		}
		path := filepath.Join(dir, "merged", file)
		if err := writeFile(path, merged); err != nil {
			return SharedBuild{}, err
		}
		overlay[filepath.Join(l.Dir, file)] = path
	}
	return shared, nil
}

// readGo reads and parses a Go file.
func readGo(path string) (goFile, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return goFile{}, err
	}
	return parseGo(filepath.Base(path), src)
}
