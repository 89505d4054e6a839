package l10n

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A sentence of the English changes after its translation: the translation is behind, and the
// problem shows the English diff since the commit it was translated from, with the sha256 to
// write once it is carried over. A change not committed yet is in the diff too.
func TestDriftShowsTheEnglishDiffSinceTheTranslation(t *testing.T) {
	root := gitFixture(t)
	translated := strings.TrimSpace(gitIn(t, root, "rev-parse", "HEAD"))
	const english = "lessons/01-demo/README.md"
	replaceIn(t, root, english, "reconciles each one", "reconciles them one at a time")
	gitIn(t, root, "commit", "-q", "-am", "English: a clearer sentence")
	replaceIn(t, root, english, "only when stuck", "only once stuck")
	sum, err := fileSHA256(filepath.Join(root, english))
	if err != nil {
		t.Fatal(err)
	}
	expect(t, "drift", problems(t, root), []string{
		readme + ": behind its English: " + english + " has changed since " + readme + " was translated from it (commit " + translated[:12] + ")",
		"write sha256=" + sum + " into its first line",
		"-A controller watches objects and reconciles each one: it compares",
		"+A controller watches objects and reconciles them one at a time: it compares",
		"-Read [the hints](hints.md) only when stuck",
		"+Read [the hints](hints.md) only once stuck",
	})
}

// When no version in git history has the header's sha256 (a shallow clone, a hash edited by
// hand, or no git at all), the problem says so and what to do instead.
func TestDriftWithoutTheTranslatedVersion(t *testing.T) {
	root := fixture(t) // not a git repository
	replaceIn(t, root, "lessons/01-demo/hints.md", "Three layers", "Three parts")
	expect(t, "no history", problems(t, root), []string{
		hints + ": behind its English: lessons/01-demo/hints.md has changed since",
		"no version of it in this clone's git history has the header's sha256 f768ec748eb2",
		"git fetch --unshallow", "sentence by sentence, then write sha256=",
	})
}

// A long diff is cut in make test's message; make l10n-diff shows all of it.
func TestExplainCutsALongDiff(t *testing.T) {
	d := Drift{Translation: Translation{Path: "x.zh-CN.md", Source: "x.md"}, Base: "0123456789abcdef", Current: "c", Diff: strings.Repeat("+a line\n", 100)}
	short, long := d.Explain(60), d.Explain(0)
	if strings.Count(short, "+a line") != 60 || !strings.Contains(short, "[... 40 more lines: make l10n-diff shows them all]") {
		t.Errorf("cut to 60 lines:\n%s", short)
	}
	if strings.Count(long, "+a line") != 100 {
		t.Errorf("not cut: %d lines", strings.Count(long, "+a line"))
	}
}

// gitFixture is the fixture committed into a git repository of its own.
func gitFixture(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	root := fixture(t)
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", ".")
	gitIn(t, root, "commit", "-q", "-m", "the demo lesson, translated")
	return root
}

// gitIn runs git in dir, with no configuration of this machine's user, and returns its output.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// replaceIn replaces old with new, once, in a file below root.
func replaceIn(t *testing.T, root, rel, old, new string) {
	t.Helper()
	path := filepath.Join(root, rel)
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q (%v)", rel, old, err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
