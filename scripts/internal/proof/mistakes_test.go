package proof

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"workshop.local/scripts/workspace"
)

// TestMistakesAreListedInBothLanguages proves the Chinese list names the English one it was
// written beside (so the translation checks read it as current, never as behind), and that it
// lists the same mistakes, each by its header's Chinese sentence.
func TestMistakesAreListedInBothLanguages(t *testing.T) {
	root, err := workspace.Root()
	if err != nil {
		t.Fatal(err)
	}
	english, chinese, err := renderBothMistakes(root)
	if err != nil {
		t.Fatal(err)
	}
	header := fmt.Sprintf("<!-- l10n: source=mistakes.md sha256=%x -->\n", sha256.Sum256(english))
	if !strings.HasPrefix(string(chinese), header) {
		t.Fatalf("the Chinese list should open with %q, it opens with %q", header, strings.SplitN(string(chinese), "\n", 2)[0])
	}
	en, zh := strings.Count(string(english), "\n- "), strings.Count(string(chinese), "\n- ")
	if en == 0 || en != zh {
		t.Fatalf("want the same number of mistakes in both lists, got %d in English and %d in Chinese", en, zh)
	}
	if strings.Count(string(chinese), "。（`wrong/") != strings.Count(string(english), ". (`wrong/") {
		t.Fatalf("the Chinese list should give each mistake's Chinese sentence, got:\n%.600s", chinese)
	}
}
