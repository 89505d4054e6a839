package generated

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
)

// TestScaffoldComparisonFindsEveryDrift proves the comparison of a scaffolded lesson with what
// its CLI writes reports a changed file, a missing one, an unlisted extra one and a file the
// workshop changed other than at its end, and leaves out the learner's and the workshop's files.
func TestScaffoldComparisonFindsEveryDrift(t *testing.T) {
	l := fakeLesson(t) // demo.go is the learner's file (the solution replaces it)
	l.Manifest.Scaffold = &lessons.Scaffold{Tool: "x", Commands: [][]string{{"init"}},
		Workshop: []string{"README.md", "*_test.go", "tools/"}, Appended: []string{"Makefile"}}
	made := t.TempDir()
	for name, content := range map[string]string{
		"demo.go": "package demo\n", "cmd/main.go": "package main\n", "Makefile": "all:\n",
		"README.md": "the CLI's readme\n", "PROJECT": "domain: x\n", "Dockerfile": "FROM x\n",
	} {
		write(t, filepath.Join(made, name), content)
	}
	for name, content := range map[string]string{
		"cmd/main.go": "package main\n", "Makefile": "all:\n\ncheck:\n", "README.md": "the workshop's\n",
		"PROJECT": "domain: y\n", "suite_test.go": "package demo\n", "tools/go.mod": "module t\n",
		"notes.txt": "mine\n", "bin/controller-gen": "binary\n",
	} {
		write(t, filepath.Join(l.Dir, name), content)
	}
	excepted, err := scaffoldExceptions(l)
	if err != nil {
		t.Fatal(err)
	}
	drift, err := compareScaffold(l, made, excepted)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"lessons/01-demo/Dockerfile: the CLI writes it, the lesson lacks it",
		"lessons/01-demo/PROJECT: differs from the CLI's",
		"lessons/01-demo/notes.txt: the CLI does not write it; list it in lesson.yaml's scaffold.workshop if the workshop owns it",
	}
	slices.Sort(drift)
	if !slices.Equal(drift, want) {
		t.Errorf("drift:\n%s\nwant:\n%s", strings.Join(drift, "\n"), strings.Join(want, "\n"))
	}

	write(t, filepath.Join(l.Dir, "Makefile"), "# ours first\nall:\n")
	drift, err = compareScaffold(l, made, excepted)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(drift, "lessons/01-demo/Makefile: does not start with the CLI's file (the workshop may only add at its end)") {
		t.Errorf("a Makefile changed before its end should be reported, got:\n%s", strings.Join(drift, "\n"))
	}
}

// TestScaffoldPatches proves a patch of lesson.yaml is applied to the CLI's file before the
// comparison, and that a patch whose old text the CLI no longer writes once is reported.
func TestScaffoldPatches(t *testing.T) {
	l := fakeLesson(t)
	patch := lessons.ScaffoldEdit{File: "cmd/main.go", Old: `":8081"`, New: `"127.0.0.1:8081"`, Why: "loopback"}
	l.Manifest.Scaffold = &lessons.Scaffold{Tool: "x", Commands: [][]string{{"init"}}, Patched: []lessons.ScaffoldEdit{patch}}
	made := t.TempDir()
	write(t, filepath.Join(made, "cmd/main.go"), `probe := ":8081" // the rest`+"\n")
	write(t, filepath.Join(l.Dir, "cmd/main.go"), `probe := "127.0.0.1:8081" // the rest`+"\n")
	excepted, err := scaffoldExceptions(l)
	if err != nil {
		t.Fatal(err)
	}
	if drift, err := compareScaffold(l, made, excepted); err != nil || len(drift) > 0 {
		t.Errorf("the patched file should match, got %v (error %v)", drift, err)
	}
	write(t, filepath.Join(made, "cmd/main.go"), `probe := ":9090" // the rest`+"\n")
	drift, err := compareScaffold(l, made, excepted)
	if err != nil || len(drift) != 1 || !strings.Contains(drift[0], "not once") {
		t.Errorf("a patch the CLI's file no longer fits should be reported, got %v (error %v)", drift, err)
	}
}
