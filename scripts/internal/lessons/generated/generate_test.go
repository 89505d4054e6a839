package generated

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
)

// fakeGenerator is a generator that needs no controller-gen: it copies the marker lines of the
// package's non-test Go files to config/markers.txt (the manifest) and writes a fixed
// zz_generated.go, both into the folder its argument names.
const fakeGenerator = `package main

import (
	"os"
	"path/filepath"
	"strings"
)

func main() {
	out := os.Args[1]
	files, _ := filepath.Glob("*.go")
	var markers []string
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(data), "\n") {
			if !strings.HasSuffix(f, "_test.go") && strings.Contains(line, "+marker") {
				markers = append(markers, line+"\n")
			}
		}
	}
	_ = os.MkdirAll(filepath.Join(out, "config"), 0o755)
	_ = os.WriteFile(filepath.Join(out, "config", "markers.txt"), []byte(strings.Join(markers, "")), 0o644)
	_ = os.WriteFile(filepath.Join(out, "zz_generated.go"), []byte("package demo\n"), 0o644)
}
`

// generatingLesson is fakeLesson with a generator, declared as lesson.yaml declares one: a tool
// of the lesson's tools module.
func generatingLesson(t *testing.T) lessons.Lesson {
	t.Helper()
	l := fakeLesson(t)
	l.Manifest.Generate = &lessons.Generate{Steps: []lessons.Step{{Tool: "demotools/gen", Args: []string{"{out}"}}}}
	write(t, filepath.Join(l.Dir, "tools", "go.mod"), "module demotools\n\ngo 1.26\n")
	write(t, filepath.Join(l.Dir, "tools", "gen", "main.go"), fakeGenerator)
	write(t, filepath.Join(l.Dir, "go.mod"), "module demo\n")
	write(t, filepath.Join(l.Dir, "demo.go"), "package demo\n\n// TODO(exercise 1): do it.\n")
	write(t, filepath.Join(l.Dir, "demo_test.go"), "package demo\n\n// +marker from a test: never generated from\n")
	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package demo\n\n// +marker max=5\n")
	write(t, filepath.Join(l.Dir, "config", "markers.txt"), "")
	write(t, filepath.Join(l.Dir, "zz_generated.go"), "package demo\n")
	write(t, filepath.Join(l.SolutionDir, "config", "markers.txt"), "// +marker max=5\n")
	return l
}

// TestGeneratedFilesAreCheckedAndOverlaid proves a lesson that declares a generator is found, its
// committed files are compared with what its starter and its solution generate, the
// solution's manifests are part of the solution overlay, and a wrong solution gets a manifest
// generated from its own code.
func TestGeneratedFilesAreCheckedAndOverlaid(t *testing.T) {
	ctx := context.Background()
	l := generatingLesson(t)
	if !l.Generates() || fakeLesson(t).Generates() {
		t.Fatal("Generates should be true exactly for a lesson whose lesson.yaml declares generate")
	}
	stale, err := Stale(ctx, l, t.TempDir())
	if err != nil || len(stale) != 0 {
		t.Fatalf("committed files match what is generated, want no stale file, got %v (error %v)", stale, err)
	}

	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package demo\n\n// +marker max=6\n")
	stale, err = Stale(ctx, l, t.TempDir())
	if err != nil || len(stale) != 1 || !strings.Contains(stale[0], "solutions/01-demo/config/markers.txt: stale") {
		t.Fatalf("the solution's markers changed, want its manifest reported stale, got %v (error %v)", stale, err)
	}
	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package demo\n\n// +marker max=5\n")

	overlay, err := l.SolutionOverlay()
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(l.Dir, "config", "markers.txt")
	if overlay[manifest] != filepath.Join(l.SolutionDir, "config", "markers.txt") {
		t.Fatalf("the solution overlay should put the solution's manifest in place, got %v", overlay)
	}

	own, err := Overlay(ctx, l, overlay, filepath.Join(t.TempDir(), "generated"))
	if err != nil || own {
		t.Fatalf("the solution's own code generates the solution's manifest, want own=false, got %v (error %v)", own, err)
	}

	wrong := filepath.Join(t.TempDir(), "demo.go")
	write(t, wrong, "package demo\n\n// +marker max=500\n")
	overlay[filepath.Join(l.Dir, "demo.go")] = wrong
	own, err = Overlay(ctx, l, overlay, filepath.Join(t.TempDir(), "generated"))
	if err != nil || !own {
		t.Fatalf("a wrong API generates a manifest of its own, want own=true, got %v (error %v)", own, err)
	}
	got, err := os.ReadFile(overlay[manifest])
	if err != nil || string(got) != "// +marker max=500\n" {
		t.Fatalf("a wrong solution's manifest should be generated from it, got %q (error %v)", got, err)
	}
	if _, replaced := overlay[filepath.Join(l.Dir, "zz_generated.go")]; replaced {
		t.Fatal("generated Go files are never overlaid: the starter's serve every solution")
	}
}

// secondGenerator is a second step: it writes a client (client.go, among the sources, as
// deepcopy-gen writes beside the types) when a source file holds "+client", and a copy of the
// header file it is given ({lesson}) to {out}/header.txt.
const secondGenerator = `package main

import (
	"os"
	"path/filepath"
	"strings"
)

func main() {
	out, header := os.Args[1], os.Args[2]
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), "+client") {
			_ = os.WriteFile("zz_generated.client.go", []byte("package demo\n\n// a client\n"), 0o644)
		}
	}
	data, _ := os.ReadFile(header)
	_ = os.MkdirAll(out, 0o755)
	_ = os.WriteFile(filepath.Join(out, "header.txt"), data, 0o644)
}
`

// TestCodeGeneratedFromTheSolution proves a lesson with generate steps runs them all, in order,
// collects what a step writes among the sources, and, generated from its solution, compares
// only the solution's output with what the lesson commits, regenerates the lesson from the
// solution in make generate, and generates nothing for a wrong solution.
func TestCodeGeneratedFromTheSolution(t *testing.T) {
	ctx := context.Background()
	l := generatingLesson(t)
	l.Manifest.Generate.From = lessons.FromSolution
	l.Manifest.Generate.Steps = append(l.Manifest.Generate.Steps, lessons.Step{Tool: "demotools/gen2", Args: []string{"{out}", "{lesson}/hack/header.txt"}})
	write(t, filepath.Join(l.Dir, "tools", "gen2", "main.go"), secondGenerator)
	write(t, filepath.Join(l.Dir, "hack", "header.txt"), "// header\n")
	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package demo\n\n// +marker max=5\n// +client\n")
	if !l.GeneratesFromSolution() {
		t.Fatal("GeneratesFromSolution should follow generate.from")
	}

	// make generate: from the solution, whatever the learner's files say.
	if err := Run(ctx, l, l.Dir, l.Dir, false); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		filepath.Join(l.Dir, "zz_generated.client.go"):        "package demo\n\n// a client\n",
		filepath.Join(l.Dir, "header.txt"):                    "// header\n",
		filepath.Join(l.SolutionDir, "config", "markers.txt"): "// +marker max=5\n",
		filepath.Join(l.Dir, "zz_generated.go"):               "package demo\n",
	} {
		if got, err := os.ReadFile(file); err != nil || string(got) != want {
			t.Errorf("make generate should write %s from the solution's files: got %q (error %v), want %q", file, got, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(l.Dir, "config", "markers.txt")); err != nil {
		t.Fatal(err)
	}
	stale, err := Stale(ctx, l, t.TempDir())
	if err != nil || len(stale) != 0 {
		t.Fatalf("generated from the solution and committed: want no stale file (the starter generates no client, and is not compared), got %v (error %v)", stale, err)
	}

	write(t, filepath.Join(l.Dir, "zz_generated.client.go"), "package demo\n")
	stale, err = Stale(ctx, l, t.TempDir())
	if err != nil || len(stale) != 1 || !strings.Contains(stale[0], "lessons/01-demo/zz_generated.client.go (generated from the solution's types): stale; run make generate LESSON=01") {
		t.Fatalf("a committed client that the solution does not generate should be stale, got %v (error %v)", stale, err)
	}

	overlay := map[string]string{filepath.Join(l.Dir, "demo.go"): filepath.Join(l.SolutionDir, "demo.go")}
	if own, err := Overlay(ctx, l, overlay, filepath.Join(t.TempDir(), "generated")); err != nil || own || len(overlay) != 1 {
		t.Fatalf("code generated from the solution is never generated for a wrong solution: got own=%v, overlay %v (error %v)", own, overlay, err)
	}
}
