package workspace

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDefaultKubeconfigReadsKUBECONFIG proves the guard lesson 11's Makefile runs checks
// the kubeconfig $KUBECONFIG names, as kubectl and ctrl.GetConfigOrDie load it: the workspace's
// own cluster passes; the same context with another server, and a missing file, are refused.
func TestCheckDefaultKubeconfigReadsKUBECONFIG(t *testing.T) {
	const server, ca = "https://127.0.0.1:6443", "the CA"
	trusting(t, server, []byte(ca))
	t.Setenv("LESSONS_ALLOW_CONTEXT", "")

	t.Setenv("KUBECONFIG", writeKubeconfig(t, LocalContext, server, []byte(ca)))
	if err := CheckDefaultKubeconfig(); err != nil {
		t.Errorf("the workspace's own cluster was refused: %v", err)
	}

	t.Setenv("KUBECONFIG", writeKubeconfig(t, LocalContext, "https://127.0.0.1:7443", []byte(ca)))
	if err := CheckDefaultKubeconfig(); err == nil || !strings.Contains(err.Error(), "not the cluster `make cluster` recorded") {
		t.Errorf("another server under the workshop's context name: want the refusal, got %v", err)
	}

	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "missing"))
	if err := CheckDefaultKubeconfig(); err == nil || !strings.Contains(err.Error(), "make cluster") {
		t.Errorf("no kubeconfig: want a pointer to make cluster, got %v", err)
	}
}
