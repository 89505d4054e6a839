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

// TestOwnerRecordIsNeverSeenHalfWritten: two `make cluster` at once both record the owner while
// the other checks it. A reader must never see an empty record and take it for a foreign
// workspace (the cwd's go.work made "" look like a workspace that exists).
func TestOwnerRecordIsNeverSeenHalfWritten(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(t.TempDir())
	if err := os.WriteFile("go.work", []byte("go 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkOwner(dir, "/this"); err != nil {
		t.Fatalf("an empty record: want no error, got %v", err)
	}
	if err := recordOwner(dir, "/this"); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 2000 {
			if err := recordOwner(dir, "/this"); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	seenEmpty := false
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		if data, err := os.ReadFile(filepath.Join(dir, ownerFile)); err == nil && len(data) == 0 {
			seenEmpty = true
		}
	}
	if seenEmpty {
		t.Error("read an empty owner record while it was being written")
	}
}
