package variants

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
)

// TestSharedBuildRunsEachVariantAsItsOwnBuild is the proof that a shared build (variants.go)
// proves the same thing as a build per wrong solution: testdata/variants prints what every
// function of shapes.go returns (receivers of both kinds, named results, variadic and unnamed
// parameters, generics, a function that calls a changed one), and each wrong version of
// shapes.go, built alone, must print exactly what the one merged build prints when started for
// that version; started for none, it must print what the reference prints.
func TestSharedBuildRunsEachVariantAsItsOwnBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go programs")
	}
	pkg, _ := filepath.Abs(filepath.Join("testdata", "variants"))
	shapes := filepath.Join(pkg, "shapes.go")
	reference := readFixture(t, shapes)
	versions := []string{shapes, shapes + ".wrong1", shapes + ".wrong2"}

	var variants []variant
	for i, path := range versions[1:] {
		wrong := readFixture(t, path)
		changed, err := changedBodies(reference, wrong)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		variants = append(variants, variant{i + 1, wrong, changed})
	}
	merged, err := mergeVariants("shapes.go", reference, variants)
	if err != nil {
		t.Fatalf("merging: %v", err)
	}
	mergedPath := filepath.Join(t.TempDir(), "shapes.go")
	if err := os.WriteFile(mergedPath, merged, 0o644); err != nil {
		t.Fatal(err)
	}
	shared := buildFixture(t, pkg, shapes, mergedPath)
	seen := map[string]string{} // what a version prints -> the version: each must differ
	for n, path := range versions {
		alone := runFixture(t, buildFixture(t, pkg, shapes, path), nil)
		if other, ok := seen[alone]; ok {
			t.Fatalf("%s prints what %s prints: the fixture proves nothing", filepath.Base(path), other)
		}
		seen[alone] = filepath.Base(path)
		got := runFixture(t, shared, []string{VariantEnv + "=" + strconv.Itoa(n)})
		if got != alone {
			t.Errorf("%s: the shared build started as variant %d printed\n%s\nbuilt alone it prints\n%s", filepath.Base(path), n, got, alone)
		}
	}
	if got, want := runFixture(t, shared, nil), runFixture(t, buildFixture(t, pkg, shapes, shapes), nil); got != want {
		t.Errorf("the shared build started for no variant printed\n%s\nthe reference prints\n%s", got, want)
	}
}

// TestOnlyBodyChangesShareABuild: anything a dispatcher cannot stand in for is built alone.
func TestOnlyBodyChangesShareABuild(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "variants", "shapes.go"))
	if err != nil {
		t.Fatal(err)
	}
	reference := parseFixture(t, string(src))
	for _, c := range []struct{ name, old, new, want string }{
		{"a type", "type Counter struct{ n int }", "type Counter struct{ n, m int }", "more than function bodies"},
		{"a signature", "func upper(s string) string", "func upper(s string) (string)", "more than function bodies"},
		{"a comment outside bodies", "// Reset takes the counter", "// Reset zeroes the counter", "more than function bodies"},
		{"a body that recovers", "return \"ran\"", "return \"done\"", "reads its own call stack"},
		{"nothing", "", "", "no function body"},
	} {
		_, err := changedBodies(reference, parseFixture(t, strings.Replace(string(src), c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("changing %s: got %v, want an error saying %q", c.name, err, c.want)
		}
	}
	changed, err := changedBodies(reference, parseFixture(t, strings.Replace(string(src), "c.n = 0", "c.n = 2", 1)))
	if err != nil || len(changed) != 1 || changed[0] != "Reset" {
		t.Errorf("a changed body of Reset: got %v, %v; want [Reset]", changed, err)
	}
}

func readFixture(t *testing.T, path string) goFile {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseFixture(t, string(src))
}

func parseFixture(t *testing.T, src string) goFile {
	t.Helper()
	g, err := parseGo("shapes.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// buildFixture builds testdata/variants with file replaced by replacement.
func buildFixture(t *testing.T, pkg, file, replacement string) string {
	t.Helper()
	tmp := t.TempDir()
	overlay := filepath.Join(tmp, "overlay.json")
	if err := lessons.WriteOverlay(map[string]string{file: replacement}, overlay); err != nil {
		t.Fatal(err)
	}
	binary := filepath.Join(tmp, "variants")
	build := exec.Command("go", "build", "-o", binary, "-overlay="+overlay, ".")
	build.Dir = pkg
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building with %s: %v\n%s", filepath.Base(replacement), err, out)
	}
	return binary
}

func runFixture(t *testing.T, binary string, env []string) string {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", binary, err, out)
	}
	return string(out)
}
