package proof

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDeprecatedUsesFindsOverlaidDeprecatedCalls proves the check can fail: the fixture is clean
// on disk, and a deprecated call overlaid on it is reported under the overlay's file name.
func TestDeprecatedUsesFindsOverlaidDeprecatedCalls(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "deprecated"))
	if err != nil {
		t.Fatal(err)
	}
	clean, err := deprecatedUses(dir, []string{"."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(clean) != 0 {
		t.Fatalf("the clean fixture should have no findings, got %v", clean)
	}
	dirty := filepath.Join(dir, "dirty.go.txt")
	found, err := deprecatedUses(dir, []string{"."}, map[string]string{filepath.Join(dir, "clean.go"): dirty})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || !strings.HasPrefix(found[0], dirty+":12:") || !strings.Contains(found[0], "PollImmediate") {
		t.Fatalf("want one finding at %s:12 naming PollImmediate, got %v", dirty, found)
	}
	// The same call in a file that says it is generated is the generator's, not the lesson's.
	generated := filepath.Join(dir, "generated.go.txt")
	found, err = deprecatedUses(dir, []string{"."}, map[string]string{filepath.Join(dir, "clean.go"): generated})
	if err != nil || len(found) != 0 {
		t.Fatalf("a generated file's deprecated call should not be reported, got %v (error %v)", found, err)
	}
}
