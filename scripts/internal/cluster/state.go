package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"workshop.local/scripts/internal/atomicfile"
)

// stateFile, in the cluster folder, records which runtime `make cluster` started there, so that
// status and down act on what up started and auto keeps reusing it while that cluster exists.
const stateFile = "cluster-type"

// Recorded is the runtime recorded in the cluster folder dir ("" when none was started there),
// whether or not that cluster still exists.
func Recorded(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// record writes the runtime into the cluster folder.
func record(dir, runtime string) error {
	return atomicfile.Write(filepath.Join(dir, stateFile), []byte(runtime+"\n"), 0o644)
}

// forget removes the record, once a kind cluster is deleted.
func forget(dir string) { _ = os.Remove(filepath.Join(dir, stateFile)) }

// ownerFile, in the cluster folder, names the workspace that started the cluster there. The
// cluster's programs are that workspace's builds; another workspace pointed at the folder
// (WORKSHOP_CLUSTER_DIR) would restart them as its own, so it is refused instead (checkOwner).
const ownerFile = "workspace"

// recordOwner writes root as the workspace that starts the cluster in dir.
func recordOwner(dir, root string) error {
	return atomicfile.Write(filepath.Join(dir, ownerFile), []byte(root+"\n"), 0o644)
}

// checkOwner refuses to start or restart, from root, a cluster another workspace started in
// dir while that workspace still exists.
func checkOwner(dir, root string) error {
	data, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		return nil // none recorded: a cluster of an older workspace, or none yet
	}
	owner := strings.TrimSpace(string(data))
	if owner == "" || owner == root {
		return nil // an empty record names no one
	}
	if _, err := os.Stat(filepath.Join(owner, "go.work")); err != nil {
		return nil // that workspace is gone: this one may take the folder over
	}
	return fmt.Errorf("the cluster in %s belongs to the workspace at %s: run make there, or set WORKSHOP_RUNNING_CLUSTER=1 to use that cluster as it runs, without starting or restarting it", dir, owner)
}
