package classroom

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestKitEnvSurvivesSpacesAndQuotes: `source .kit/env.sh` must set GOPROXY to the kit's modules
// in a workspace under "My Projects" (or a folder with a quote in its name), not fail on the space.
func TestKitEnvSurvivesSpacesAndQuotes(t *testing.T) {
	root := filepath.Join(t.TempDir(), "My Projects", "Ann's workshop")
	if err := os.MkdirAll(kitDir(root), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeKitEnv(root); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("sh", "-c", `. "$1" && printf %s "$GOPROXY"`, "sh", filepath.Join(kitDir(root), "env.sh")).CombinedOutput()
	if err != nil {
		t.Fatalf("sourcing env.sh: %v\n%s", err, out)
	}
	if got, want := string(out), kitProxy(root); got != want {
		t.Errorf("GOPROXY = %q, want %q", got, want)
	}
}
