package binaries

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// envtestAssets are the programs controller-runtime's envtest starts (etcd, kube-apiserver) or
// offers (kubectl), under the names it looks for in KUBEBUILDER_ASSETS, and the binary in the
// cache that each name links to. workshop-kube runs the API server when called kube-apiserver.
var envtestAssets = map[string]string{"etcd": "etcd", "kube-apiserver": "workshop-kube", "kubectl": "kubectl"}

// EnvtestDir is the folder to give envtest as KUBEBUILDER_ASSETS: the three programs and nothing
// else, like the folders setup-envtest downloads, but from this build.
func (b Binaries) EnvtestDir() string {
	return filepath.Join(b.Dir, "envtest")
}

// EnsureEnvtest builds the binaries envtest needs that are missing and links them into
// EnvtestDir, whose path it returns.
func (b Binaries) EnsureEnvtest(ctx context.Context, out io.Writer) (string, error) {
	if err := b.ensure(ctx, out, clusterBinaries); err != nil {
		return "", err
	}
	dir := b.EnvtestDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for name, binary := range envtestAssets {
		if err := relink(filepath.Join(dir, name), filepath.Join("..", filepath.Base(b.Path(binary)))); err != nil {
			return "", fmt.Errorf("linking %s into %s: %w", name, dir, err)
		}
	}
	return dir, nil
}

// relink makes link a symbolic link to target (relative, so the cache folder may move), unless
// it is one already. Two processes at once both end with the same link.
func relink(link, target string) error {
	if current, err := os.Readlink(link); err == nil && current == target {
		return nil
	}
	if err := os.Remove(link); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	err := os.Symlink(target, link)
	if errors.Is(err, os.ErrExist) {
		if current, readErr := os.Readlink(link); readErr == nil && current == target {
			return nil // the other process made the same link meanwhile
		}
	}
	return err
}
