package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// HostReachFile, in the cluster folder, says how the cluster's API server reaches a process on
// the learner's machine, such as lesson 12's webhook server. Only the runtime that started the
// cluster knows (one runs the API server on this host, the other in a container); make cluster
// records its answer here, for the context it wrote, and lessons read it (HostReachOf) rather
// than guessing from the context's name.
const HostReachFile = "host-reach"

// HostReach is one way the API server reaches this machine.
type HostReach string

const (
	// ReachLoopback: the API server runs on this host and calls 127.0.0.1.
	ReachLoopback HostReach = "loopback"
	// ReachNodeNetwork: the API server runs in a container and calls this host's address on the
	// container network that holds the cluster's nodes (its gateway).
	ReachNodeNetwork HostReach = "node-network"
)

// RecordHostReach records, in the cluster folder, how the API server of context reaches this
// machine.
func RecordHostReach(clusterDir, context string, reach HostReach) error {
	return os.WriteFile(filepath.Join(clusterDir, HostReachFile), []byte(context+" "+string(reach)+"\n"), 0o644)
}

// HostReachOf is how the API server of context, the workspace cluster's, reaches this machine,
// as make cluster recorded it.
func HostReachOf(context string) (HostReach, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	path := filepath.Join(ClusterDir(root), HostReachFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("no record of how the cluster reaches this machine (%v): run `make cluster`, which writes it", err)
	}
	recorded, reach, _ := strings.Cut(strings.TrimSpace(string(data)), " ")
	if recorded != context {
		return "", fmt.Errorf("%s records the context %q, not %q: run `make cluster` to record this one", path, recorded, context)
	}
	return HostReach(reach), nil
}
