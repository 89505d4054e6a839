package l10n

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fixture, testdata/workspace, is a small workspace whose translations are current and
// faithful: a lesson's README and hints, the root README, a docs page left in English and the
// glossary. Check finds nothing in it. Every other test breaks one thing in a copy of it and
// expects exactly the problems that one thing causes.
func TestFixtureIsClean(t *testing.T) {
	r, err := Check(t.Context(), "testdata/workspace")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Translations) != 3 || r.Terms != 5 {
		t.Errorf("found %d translations and %d terms, want 3 and 5", len(r.Translations), r.Terms)
	}
	for _, p := range r.Problems {
		t.Error(p)
	}
}

// With no translation at all there is nothing to keep in step, and no glossary is needed.
func TestNoTranslationsNoProblems(t *testing.T) {
	r, err := Check(t.Context(), t.TempDir())
	if err != nil || len(r.Translations) != 0 || len(r.Problems) != 0 {
		t.Errorf("an empty workspace: %d translations, problems %v, error %v; want none", len(r.Translations), r.Problems, err)
	}
}

// edit replaces old with new, once, in a file of the fixture's copy.
type edit struct{ file, old, new string }

const (
	readme = "lessons/01-demo/README.zh-CN.md"
	hints  = "lessons/01-demo/hints.zh-CN.md"
)

// fixture copies testdata/workspace into a temporary folder and applies the edits.
func fixture(t *testing.T, edits ...edit) string {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/workspace")); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		replaceIn(t, root, e.file, e.old, e.new)
	}
	return root
}

// problems is what Check finds in root, one string per problem.
func problems(t *testing.T, root string) []string {
	t.Helper()
	r, err := Check(t.Context(), root)
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, p := range r.Problems {
		list = append(list, p.String())
	}
	return list
}

// expect checks that got has one problem per entry of want, each holding every word of it.
func expect(t *testing.T, name string, got []string, want ...[]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d problems, want %d:\n%s", name, len(got), len(want), strings.Join(got, "\n"))
		return
	}
	for i, words := range want {
		for _, w := range words {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: problem %d lacks %q:\n%s", name, i+1, w, got[i])
			}
		}
	}
}

// A translation says in its first line which English text it was translated from.
func TestHeader(t *testing.T) {
	for _, c := range []struct {
		name string
		edit edit
		want []string
	}{
		{"no header", edit{hints, "<!-- l10n: source=hints.md sha256=", "<!-- sha256="},
			[]string{hints + ": its first line must name", "<!-- l10n: source=hints.md sha256=f768ec748eb2"}},
		{"another source", edit{hints, "source=hints.md", "source=README.md"},
			[]string{hints + ": its header names source=README.md, but it is the translation of hints.md"}},
	} {
		expect(t, c.name, problems(t, fixture(t, c.edit)), c.want)
	}
}

// A translation has its English beside it; only the glossary has none.
func TestTranslationWithoutEnglish(t *testing.T) {
	root := fixture(t)
	if err := os.WriteFile(filepath.Join(root, "docs", "orphan.zh-CN.md"), []byte("# 孤儿\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	expect(t, "orphan", problems(t, root), []string{"docs/orphan.zh-CN.md: no English docs/orphan.md beside it"})
}
