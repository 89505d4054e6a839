package classroom

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/workspace"
)

// offlineEnv cuts every way go could reach the network: no module proxy, no toolchain download,
// and any HTTP(S) request (a checksum database lookup, a VCS fetch) sent to a dead proxy.
var offlineEnv = []string{"GOPROXY=off", "GOTOOLCHAIN=local", "HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9"}

// TestWorksOfflineAfterPrepare is issue 13's proof that after make prepare's downloads, what make
// check, make ginkgo and make cluster build needs no network: the check tools, a lesson's test
// binary, Ginkgo's CLI, and the cluster builders' package graphs (go list -deps: it needs every
// module's source and go.sum, without compiling Kubernetes). The downloads run first (a second
// when already done), so the proof holds on any machine that has run make test once.
func TestWorksOfflineAfterPrepare(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the offline proof builds a lesson's test binary")
	}
	root, err := workspace.Root()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	for _, s := range prepareSteps(root)[:2] { // the module downloads, with the network
		if err := s.run(ctx); err != nil {
			t.Fatalf("%s: %v", s.title, err)
		}
	}
	out := t.TempDir()
	lesson := filepath.Join(root, "lessons", "01-gvk-gvr")
	builders := binaries.BuilderDir(root)
	builderOffline := func(module string) []string { return append(binaries.BuilderEnv(module), offlineEnv...) }
	runs := []struct {
		dir  string
		env  []string
		args []string
	}{
		{root, offlineEnv, []string{"build", "-o", out + "/", "./scripts/workshop"}},
		{root, offlineEnv, []string{"test", "-c", "-vet=off", "-o", filepath.Join(out, "01.test"), "./lessons/01-gvk-gvr"}},
		{lesson, offlineEnv, []string{"build", "-o", os.DevNull, "github.com/onsi/ginkgo/v2/ginkgo"}},
		{filepath.Join(builders, "etcd"), builderOffline("etcd"), append([]string{"list", "-deps"}, binaries.BuilderPackages("etcd")...)},
		{filepath.Join(builders, "kube"), builderOffline("kube"), append([]string{"list", "-deps"}, binaries.BuilderPackages("kube")...)},
	}
	for _, r := range runs {
		start := time.Now()
		cmd := exec.CommandContext(ctx, "go", r.args...)
		cmd.Dir, cmd.Env = r.dir, append(os.Environ(), r.env...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("offline `go %s` in %s failed (%v): something is still to download, which make prepare should have done:\n%s",
				strings.Join(r.args, " "), r.dir, err, stderr.String())
			continue
		}
		t.Logf("offline go %s: %s", r.args[0]+" "+r.args[len(r.args)-1], time.Since(start).Round(time.Millisecond))
	}
}
