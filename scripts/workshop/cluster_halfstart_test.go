package main_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"workshop.local/scripts/internal/cluster/binaries"
)

var _ = Describe("a start that fails half-way", func() {
	It("stops the components it had started, so nothing is left running", func() {
		dir := GinkgoT().TempDir()
		DeferCleanup(killProcessesUsing, dir) // what this spec finds left running, it does not leave
		res := runWithCache(dir, cacheWhoseNodeFails())
		Expect(res.exitCode).NotTo(BeZero())
		Expect(res.output).To(ContainSubstring("kube-scheduler           ready after"), "the components before the node should have started")
		Expect(res.output).To(ContainSubstring("hollow-node"), "the error should name the component that failed")
		Expect(res.output).To(ContainSubstring("The components that had started are stopped again"))
		Expect(processesUsing(dir)).To(BeEmpty(), "a failed start left these running")
	})
})

// cacheWhoseNodeFails is a binary cache where etcd and kubectl are the real ones and workshop-kube
// is a small program (failingNode) that runs the real one for every program but the hollow
// node, which exits at once. A program, not a script: the tool checks /proc/<pid>/exe against
// the binary it started, and a script's exe is its shell.
func cacheWhoseNodeFails() string {
	GinkgoHelper()
	real, err := binaries.Default(rootDir)
	Expect(err).NotTo(HaveOccurred())
	if missing := real.Missing(); len(missing) > 0 {
		Skip("the cluster binaries are not built yet (" + strings.Join(missing, ", ") + "): make cluster builds them")
	}
	cache := GinkgoT().TempDir()
	fake := filepath.Join(cache, filepath.Base(real.Dir))
	Expect(os.MkdirAll(fake, 0o755)).To(Succeed())
	for _, name := range []string{"etcd", "kubectl"} {
		Expect(os.Symlink(real.Path(name), filepath.Join(fake, filepath.Base(real.Path(name))))).To(Succeed())
	}
	src := GinkgoT().TempDir()
	Expect(os.WriteFile(filepath.Join(src, "main.go"), []byte(failingNode), 0o644)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(src, "go.mod"), []byte("module failingnode\n"), 0o644)).To(Succeed())
	kube := real.Path("workshop-kube")
	build := commandWithin(within(5*time.Minute), "go", "build", "-o", filepath.Join(fake, filepath.Base(kube)), "-ldflags", "-X main.real="+kube, ".")
	build.Dir, build.Env = src, append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := build.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), string(out))
	return cache
}

// failingNode runs the real workshop-kube as its child, passing signals on, except as the
// hollow node, which fails at once.
const failingNode = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

var real string

func main() {
	if len(os.Args) > 1 && os.Args[1] == "hollow-node" {
		fmt.Fprintln(os.Stderr, "this hollow node fails on purpose (a test)")
		os.Exit(3)
	}
	cmd := exec.Command(real, os.Args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		os.Exit(4)
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() { cmd.Process.Signal(<-signals) }()
	cmd.Wait()
}
`

func runWithCache(dir, cache string) toolResult {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := runTool(ctx, []string{"WORKSHOP_CLUSTER_DIR=" + dir, "WORKSHOP_CACHE=" + cache}, "up")
	Expect(err).NotTo(HaveOccurred())
	return res
}

// processesUsing maps the pid of every running process that names dir (every component's flags
// name its cluster folder) to its command line.
func processesUsing(dir string) map[int]string {
	found := map[int]string{}
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		data, err := os.ReadFile(f)
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		if err == nil && pid != 0 && strings.Contains(string(data), dir) {
			found[pid] = strings.ReplaceAll(string(data), "\x00", " ")
		}
	}
	return found
}

func killProcessesUsing(dir string) {
	for pid := range processesUsing(dir) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
