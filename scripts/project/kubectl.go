package project

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"

	"workshop.local/scripts/internal/cluster/binaries"
)

// Kubectl is a kubectl for a project's Makefile (make install pipes kustomize into
// "$(KUBECTL)" apply): the one built with the local cluster, at the server's version, where it is
// built; else one on PATH; else the local cluster's, built now (a few minutes; progress to out).
func Kubectl(ctx context.Context, workspaceRoot string, out io.Writer) (string, error) {
	bins, err := binaries.Default(workspaceRoot)
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
