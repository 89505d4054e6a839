package cluster

import (
	"os"
	"path/filepath"
	"strings"
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
	return os.WriteFile(filepath.Join(dir, stateFile), []byte(runtime+"\n"), 0o644)
}

// forget removes the record, once a kind cluster is deleted.
func forget(dir string) { _ = os.Remove(filepath.Join(dir, stateFile)) }
