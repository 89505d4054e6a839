package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnotherWorkspacesClusterIsNotRestarted: a cluster folder another, existing workspace
// started is refused (its programs are that workspace's builds); one of a workspace that is gone,
// or one of this workspace, is fine.
func TestAnotherWorkspacesClusterIsNotRestarted(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	if err := checkOwner(dir, "/this"); err != nil {
		t.Fatalf("no owner recorded: want no error, got %v", err)
	}
	if err := os.WriteFile(filepath.Join(other, "go.work"), []byte("go 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := recordOwner(dir, other); err != nil {
		t.Fatal(err)
	}
	if err := checkOwner(dir, "/this"); err == nil || !strings.Contains(err.Error(), "WORKSHOP_RUNNING_CLUSTER=1") {
		t.Fatalf("another workspace's cluster: want a refusal naming the way out, got %v", err)
	}
	if err := checkOwner(dir, other); err != nil {
		t.Fatalf("its own cluster: want no error, got %v", err)
	}
	if err := os.Remove(filepath.Join(other, "go.work")); err != nil {
		t.Fatal(err)
	}
	if err := checkOwner(dir, "/this"); err != nil {
		t.Fatalf("the owner is gone: want no error, got %v", err)
	}
}
