package proof

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With no translation the check passes and says so; a translation that names no English text
// fails it, named with its problem and the command that shows the English's changes.
func TestTranslationsCurrent(t *testing.T) {
	root := t.TempDir()
	detail, err := (&tester{root: root}).translationsCurrent(t.Context())
	if err != nil || detail != "no translations yet: nothing to keep in step" {
		t.Errorf("no translations: %q, %v", detail, err)
	}
	for name, text := range map[string]string{"README.md": "# Workshop\n", "README.zh-CN.md": "# 工作坊\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err = (&tester{root: root}).translationsCurrent(t.Context())
	if err == nil || !strings.Contains(err.Error(), "README.zh-CN.md: its first line must name the English text") ||
		!strings.Contains(err.Error(), "make l10n-diff") {
		t.Errorf("a translation without its header: %v", err)
	}
}
