package generated

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

const reference = `package demo

// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get

// Site is a type the generators read.
type Site struct {
	Replicas int ` + "`json:\"replicas\"`" + `
}

func reconcile(s Site) int {
	return s.Replicas
}

func later() {}
`

// sameOutsideBodies tells a change of what a function does from a change a generator can see.
func TestSameOutsideBodies(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.go")
	write(t, ref, reference)
	for _, c := range []struct {
		name, from, to string
		same           bool
	}{
		{"a longer body", "return s.Replicas\n", "n := s.Replicas\n\tn++\n\treturn n\n", true},
		{"a marker", "verbs=get", "verbs=get;list", false},
		{"a comment inside a body", "return s.Replicas\n", "// +kubebuilder:rbac:groups=\"\",resources=pods,verbs=get\n\treturn s.Replicas\n", false},
		{"a field's tag", `json:"replicas"`, `json:"replicas,omitempty"`, false},
		{"a signature", "func later() {}", "func later(n int) {}", false},
		{"a field's type", "Replicas int", "Replicas int32", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			changed := filepath.Join(t.TempDir(), "changed.go")
			edited := replaceOnce(t, reference, c.from, c.to)
			write(t, changed, edited)
			if got := sameOutsideBodies(ref, changed); got != c.same {
				t.Errorf("sameOutsideBodies = %v, want %v for:\n%s", got, c.same, edited)
			}
		})
	}
	broken := filepath.Join(dir, "broken.go")
	write(t, broken, "package demo\n\nfunc {")
	if sameOutsideBodies(ref, broken) {
		t.Error("a file that does not parse should count as different")
	}
}

// A wrong solution that changes only a function body gets the solution's generated files, and
// the generator does not run for it.
func TestGenerateOverlaySkipsABodyOnlyChange(t *testing.T) {
	l := generatingLesson(t)
	write(t, filepath.Join(l.SolutionDir, "demo.go"), "package demo\n\n// +marker max=5\n\nfunc f() int { return 1 }\n")
	overlay, err := l.SolutionOverlay()
	if err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(l.Dir, "config", "markers.txt")
	solutionManifest := overlay[manifest]
	wrong := filepath.Join(t.TempDir(), "demo.go")
	write(t, wrong, "package demo\n\n// +marker max=5\n\nfunc f() int { return 2 }\n")
	overlay[filepath.Join(l.Dir, "demo.go")] = wrong
	own, err := Overlay(context.Background(), l, overlay, filepath.Join(t.TempDir(), "generated"))
	if err != nil || own || overlay[manifest] != solutionManifest {
		t.Fatalf("want the solution's manifest kept and own=false, got own=%v, manifest %s (error %v)", own, overlay[manifest], err)
	}
}

// replaceOnce replaces the one occurrence of from in s.
func replaceOnce(t *testing.T, s, from, to string) string {
	t.Helper()
	if strings.Count(s, from) != 1 {
		t.Fatalf("%q should occur once in the reference", from)
	}
	return strings.Replace(s, from, to, 1)
}
