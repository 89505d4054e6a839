package main_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"

	"workshop.local/scripts/workspace"
)

// These specs test the cluster tool itself by running its binary the way `make cluster` does,
// against a scratch cluster folder (WORKSHOP_CLUSTER_DIR), so the learner's .cluster is never
// touched. They share the machine's binary cache, which `make cluster` fills.
func TestClusterTool(t *testing.T) {
	RegisterFailHandler(Fail)
	suite, reporter := GinkgoConfiguration()
	// Below go test's -timeout (make test gives 20 minutes): a spec stuck on something outside
	// the tool is then reported by Ginkgo, with its name and where it waits, rather than by go
	// test's dump of every goroutine.
	suite.Timeout = 15 * time.Minute
	RunSpecs(t, "cluster tool", suite, reporter)
}

// commandWithin runs name under ctx. When ctx ends the program is killed, and Wait returns
// WaitDelay later even if programs it started still hold its output open, so no spec waits
// forever on a child's child.
func commandWithin(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// within is a context that ends after d, cancelled when the spec ends.
func within(d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	DeferCleanup(cancel)
	return ctx
}

var (
	toolPath   string // the built ./scripts/workshop binary
	scratchDir string // WORKSHOP_CLUSTER_DIR for these specs
	rootDir    string
)

var _ = BeforeSuite(func() {
	var err error
	rootDir, err = workspace.Root()
	Expect(err).NotTo(HaveOccurred())
	toolPath, err = gexec.Build("workshop.local/scripts/workshop")
	Expect(err).NotTo(HaveOccurred())
	scratchDir, err = os.MkdirTemp("", "cluster-tool-spec-")
	Expect(err).NotTo(HaveOccurred())
})

var _ = AfterSuite(func() {
	if scratchDir != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		_, _ = runTool(ctx, nil, "down")
		Expect(os.RemoveAll(scratchDir)).To(Succeed())
	}
	gexec.CleanupBuildArtifacts()
})

// toolResult is what one run of the tool printed and how it exited.
type toolResult struct {
	output   string
	exitCode int
}

// runTool runs the cluster tool with CLUSTER=local in the scratch folder; extra holds more
// KEY=VALUE pairs, which override the defaults.
func runTool(ctx context.Context, extra []string, args ...string) (toolResult, error) {
	cmd := commandWithin(ctx, toolPath, append([]string{"cluster"}, args...)...)
	cmd.Dir = rootDir
	cmd.Env = append(os.Environ(), "CLUSTER=local", "WORKSHOP_CLUSTER_DIR="+scratchDir)
	cmd.Env = append(cmd.Env, extra...)
	out, err := cmd.CombinedOutput()
	code := 0
	if exitErr := (*exec.ExitError)(nil); errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	} else if err != nil {
		return toolResult{output: string(out)}, err
	}
	GinkgoWriter.Printf("$ workshop cluster %s (exit %d)\n%s\n", strings.Join(args, " "), code, out)
	return toolResult{output: string(out), exitCode: code}, nil
}

// mustRun runs the tool and expects it to exit 0 within timeout.
func mustRun(timeout time.Duration, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := runTool(ctx, nil, args...)
	Expect(err).NotTo(HaveOccurred())
	Expect(res.exitCode).To(BeZero(), "`cluster %s` failed:\n%s", strings.Join(args, " "), res.output)
	return res.output
}

func scratchKubeconfig() string { return workspace.KubeconfigPath(scratchDir) }

func pidOf(component string) string {
	data, err := os.ReadFile(filepath.Join(scratchDir, "local", "run", component+".pid"))
	if err != nil {
		return ""
	}
	return strings.Fields(string(data))[0]
}
