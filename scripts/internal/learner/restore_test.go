package learner

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"workshop.local/scripts/internal/lessons"
)

// TestRestoreSupportPutsTheSpecsBack proves make reset's first step: a changed spec comes back
// from git, an added one leaves the lesson, and both of the learner's versions are kept.
func TestRestoreSupportPutsTheSpecsBack(t *testing.T) {
	root := t.TempDir()
	l := lessons.Lesson{Name: "01-demo", Number: "01", Dir: filepath.Join(root, "lessons", "01-demo")}
	spec := filepath.Join(l.Dir, "demo_test.go")
	mustWrite(t, spec, "package demo // shipped\n")
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "ship"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	mustWrite(t, spec, "package demo // gutted\n")
	mustWrite(t, filepath.Join(l.Dir, "extra_test.go"), "package demo\n")
	done, backup, err := RestoreSupport(root, l, []string{"changed: lessons/01-demo/demo_test.go", "added: lessons/01-demo/extra_test.go"}, time.Now())
	if err != nil || len(done) != 2 || backup == "" {
		t.Fatalf("want two files put back and a backup, got %v %q (error %v)", done, backup, err)
	}
	if data, _ := os.ReadFile(spec); string(data) != "package demo // shipped\n" {
		t.Errorf("the spec should be as shipped, it is %q", data)
	}
	if _, err := os.Stat(filepath.Join(l.Dir, "extra_test.go")); !os.IsNotExist(err) {
		t.Errorf("the added spec file should be gone from the lesson")
	}
	if data, _ := os.ReadFile(filepath.Join(backup, "lessons", "01-demo", "demo_test.go")); string(data) != "package demo // gutted\n" {
		t.Errorf("the learner's version should be in the backup, got %q", data)
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
