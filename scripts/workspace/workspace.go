// Package workspace finds the workspace root and the paths every tool agrees on.
package workspace

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Root walks up from the working directory to the folder that holds go.work.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the workshop workspace (no go.work above this folder): cd into your clone first")
		}
		dir = parent
	}
}

// ClusterDir is where the workshop cluster keeps its kubeconfig, data, logs and pid files:
// $WORKSHOP_CLUSTER_DIR if set (the tooling's own tests use a scratch one), else <root>/.cluster.
func ClusterDir(root string) string {
	if dir := os.Getenv("WORKSHOP_CLUSTER_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(root, ".cluster")
}

// KubeconfigPath is the one kubeconfig the workspace writes, whichever kind of cluster runs.
func KubeconfigPath(clusterDir string) string { return filepath.Join(clusterDir, "kubeconfig") }

// Context names the workspace creates. The spec harness trusts these and refuses any other
// context unless the learner opts in, so a suite that deletes objects never touches a real cluster.
const (
	LocalContext = "ctrl-workshop-local"
	KindCluster  = "ctrl-workshop"
	KindContext  = "kind-" + KindCluster
)

// KindClusterName is the kind cluster's name: KindCluster, or $WORKSHOP_KIND_CLUSTER, which only
// the tool's own tests set so that they never touch a learner's kind cluster.
func KindClusterName() string {
	if name := os.Getenv("WORKSHOP_KIND_CLUSTER"); name != "" {
		return name
	}
	return KindCluster
}

// GoEnv is `go env key`, "" when go cannot say (not on PATH, an unknown key).
func GoEnv(key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
