//go:build unix

package leftovers

import (
	"os"
	"path/filepath"
	"testing"
)

// The owner lock tells a live test process from a dead one without a cluster: a held flock is
// alive, a file nobody holds or no file is dead. flock locks belong to an open file, so a
// second open in this same process sees the lock as another process would.
func TestOwnerLocks(t *testing.T) {
	dir := t.TempDir()
	held := filepath.Join(dir, "held.lock")
	if err := holdLock(held); err != nil {
		t.Fatal(err)
	}
	if !lockHeld(held) {
		t.Error("a lock this process holds reads as free: its objects would be swept while it runs")
	}
	if _, err := os.Stat(held + ".new"); !os.IsNotExist(err) {
		t.Error("the temporary name of a lock file was left behind")
	}
	free := filepath.Join(dir, "free.lock")
	if err := os.WriteFile(free, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if lockHeld(free) {
		t.Error("a lock file nobody holds (its process was killed) reads as held: its objects would never be swept")
	}
	if lockHeld(filepath.Join(dir, "missing.lock")) {
		t.Error("a missing lock file reads as held")
	}
}
