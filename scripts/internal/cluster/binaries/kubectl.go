package binaries

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// Kubectl is a kubectl for a program a lesson runs (lesson 11's make install pipes kustomize
// into "$(KUBECTL)" apply): the one built with the local cluster, at the server's version, where
// it is built; else one on PATH; else the local cluster's, built now (a few minutes; progress to
// out).
func Kubectl(ctx context.Context, workspaceRoot string, out io.Writer) (string, error) {
	bins, err := Default(workspaceRoot)
	if err != nil {
		return "", err
	}
	if built := bins.Path("kubectl"); isFile(built) {
		return built, nil
	}
	if onPath, err := exec.LookPath("kubectl"); err == nil {
		return onPath, nil
	}
	if _, err := bins.EnsureEnvtest(ctx, out); err != nil {
		return "", fmt.Errorf("no kubectl on PATH, and building the workshop's failed: %w", err)
	}
	return bins.Path("kubectl"), nil
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}
