package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
)

// make l10n-diff says of each translation whether it is current, and of one that is behind what
// to do, then what else make test's check finds; a lesson's listing leaves the other translations out.
func TestL10nDiffListsEachTranslation(t *testing.T) {
	root := t.TempDir()
	old := sha256.Sum256([]byte("# Hi\n"))
	files := map[string]string{
		"README.md":       "# Hello\n",
		"README.zh-CN.md": "<!-- l10n: source=README.md sha256=" + hex.EncodeToString(old[:]) + " -->\n# 你好\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := printTranslationDrift(t.Context(), &out, resolved{root: root}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"README.zh-CN.md: behind. README.md has changed since README.zh-CN.md was translated",
		"1 translation: 0 current, 1 to bring up to date.",
		"make test's translation check finds 1 problem to fix:\n  docs/glossary.zh-CN.md: missing"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("make l10n-diff printed:\n%s\nwant a line with %q", out.String(), want)
		}
	}
	if strings.Contains(out.String(), "behind its English") {
		t.Errorf("make l10n-diff printed the drift twice:\n%s", out.String())
	}
	out.Reset()
	if err := printTranslationDrift(t.Context(), &out, resolved{root: root, lesson: lessons.Lesson{Name: "01-demo"}}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "No translations yet in lessons/01-demo.\n" {
		t.Errorf("make l10n-diff LESSON=01 printed %q, want only that the lesson has none", out.String())
	}
}
