package proof

import (
	"context"
	"errors"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
)

// TestWrongThatDoesNotCompileIsReportedAsSuch proves a wrong solution whose build failed is
// judged broken with the compiler's words, and is never run: running the binary that was not
// built failed with "exec: no command", which hid why.
func TestWrongThatDoesNotCompileIsReportedAsSuch(t *testing.T) {
	b := compiled{wrong: lessons.Wrong{Name: "typo"}, err: errors.New("controller.go:12:2: undefined: lister"), applied: true}
	p := judge(context.Background(), t.TempDir(), t.TempDir(), lessons.Lesson{Name: "99-demo"}, b, true)
	if p.verdict != broken || !strings.Contains(p.detail, "does not compile") || !strings.Contains(p.detail, "undefined: lister") {
		t.Fatalf("want broken, naming the compile error, got %v: %q", p.verdict, p.detail)
	}
}
