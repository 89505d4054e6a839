package classroom

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"workshop.local/scripts/internal/buildprogress"
	"workshop.local/scripts/internal/cluster"
	"workshop.local/scripts/internal/cluster/binaries"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/generated"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/text"
	"workshop.local/scripts/versions"
)

// step is one thing prepare does. A failed step is reported and the next ones still run: one
// bad download should not hide what else is missing. optional steps do not fail prepare.
type step struct {
	title    string
	optional bool
	run      func(ctx context.Context) error
}

// Prepare is make prepare: it does, once and with the network, everything make check later needs: the modules of
// the workspace, of the cluster builders and of the tools; the cluster binaries; every lesson's
// test binary (so the build cache is warm); kind's node image when an engine answers. It ends
// with make doctor's verdict (for CLUSTER=wanted), which is also its exit status.
func Prepare(ctx context.Context, root, wanted string) (bool, error) {
	steps := prepareSteps(root)
	failed := 0
	for i, s := range steps {
		fmt.Printf("[%d/%d] %s\n", i+1, len(steps), s.title)
		start := time.Now()
		err := s.run(ctx)
		took := time.Since(start).Round(time.Second)
		switch {
		case ctx.Err() != nil:
			return false, ctx.Err()
		case err == nil:
			fmt.Printf("      done in %s\n", took)
		case s.optional:
			fmt.Printf("      skipped after %s: %v\n", took, err)
		default:
			failed++
			fmt.Printf("      FAILED after %s: %v\n", took, err)
		}
	}
	fmt.Println()
	ok, err := Doctor(ctx, root, wanted, false)
	if failed > 0 {
		fmt.Printf("%d step(s) of make prepare failed (above); fix them and run make prepare again: finished steps are quick the second time.\n", failed)
		return false, err
	}
	return ok, err
}

func prepareSteps(root string) []step {
	return []step{
		{"Downloading the workspace's modules (lessons, harness, tools)", false, func(ctx context.Context) error {
			return goCmd(ctx, root, nil, "mod", "download")
		}},
		{"Downloading the cluster builders' modules (etcd, Kubernetes)", false, func(ctx context.Context) error {
			for _, m := range binaries.BuilderModules {
				if err := goCmd(ctx, filepath.Join(binaries.BuilderDir(root), m), binaries.BuilderEnv(m), "mod", "download"); err != nil {
					return err
				}
			}
			return nil
		}},
		{"Building the pinned tools (Ginkgo's CLI; the go:generate tools such as controller-gen)", false, func(ctx context.Context) error {
			return buildTools(ctx, root)
		}},
		{"Building the local cluster's binaries (once per machine; about 10 min on 2 cores)", false, func(ctx context.Context) error {
			bins, err := binaries.Default(root)
			if err != nil {
				return err
			}
			if len(bins.Missing()) == 0 {
				fmt.Println("      already built in " + bins.Dir)
			}
			return bins.Ensure(ctx, os.Stdout)
		}},
		{"Compiling every lesson's specs (warms the build cache for make check)", false, func(ctx context.Context) error {
			return buildLessons(ctx, root)
		}},
		{"Pulling kind's node image (only where a container engine answers)", true, pullKindImage},
	}
}

// goCmd runs go in dir with extra environment, its output shown as it comes (downloads and
// errors), so a slow network is visible.
func goCmd(ctx context.Context, dir string, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go %s in %s: %v\n%s", args[0]+" "+args[1], dir, err, text.Tail(string(out), 10, "        "))
	}
	return nil
}

// generateTool finds `//go:generate go run module/cmd@version` lines: the tools the lessons pin.
var generateTool = regexp.MustCompile(`(?m)^//go:generate go run (\S+@\S+)`)

// buildTools compiles Ginkgo's CLI (make ginkgo runs it with go run at the workspace's pinned
// version) and installs each go:generate tool into a scratch GOBIN, which downloads its modules
// and warms the build cache without touching the learner's own GOBIN.
func buildTools(ctx context.Context, root string) error {
	all, err := lessons.Discover(root)
	if err != nil || len(all) == 0 {
		return fmt.Errorf("no lessons found: %v", err)
	}
	if err := goCmd(ctx, all[0].Dir, nil, "build", "-o", os.DevNull, "github.com/onsi/ginkgo/v2/ginkgo"); err != nil {
		return err
	}
	for _, l := range all { // a lesson's tools module (lesson 10's controller-gen): built as make generate builds it
		if dir, tools := l.ToolsModule(); dir != "" {
			for _, tool := range tools {
				fmt.Println("      " + tool + " (lessons/" + l.Name + "/tools)")
				if err := goCmd(ctx, dir, []string{"GOWORK=off"}, "build", "-o", os.DevNull, tool); err != nil {
					return err
				}
			}
		}
	}
	for _, tool := range generateTools(all) {
		fmt.Println("      " + tool)
		gobin := filepath.Join(root, ".cache", "tools")
		if err := goCmd(ctx, root, []string{"GOBIN=" + gobin, "GOWORK=off"}, "install", tool); err != nil {
			return err
		}
	}
	for _, l := range all {
		if err := scaffoldOnce(ctx, l, nil); err != nil {
			return err
		}
		if err := makeTools(ctx, l); err != nil {
			return err
		}
	}
	return nil
}

// makeTools runs the targets of a project lesson's own Makefile that install its tools (lesson
// 11: make controller-gen kustomize, into its bin/), with the network make prepare has. Its
// Makefile installs them with go install module@version, which needs the network (or a kit's
// module proxy) even when the module is cached; installed once, make manifests and make install
// find them in bin/ and work offline.
func makeTools(ctx context.Context, l lessons.Lesson) error {
	if len(l.Manifest.Prepare) == 0 {
		return nil
	}
	fmt.Printf("      %s: make %s (its Makefile's tools, into its bin/)\n", l.Name, strings.Join(l.Manifest.Prepare, " "))
	cmd := exec.CommandContext(ctx, "make", append([]string{"--no-print-directory", "-C", l.Dir}, l.Manifest.Prepare...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("make %s in lessons/%s: %v\n%s", strings.Join(l.Manifest.Prepare, " "), l.Name, err, text.Tail(string(out), 10, "        "))
	}
	return nil
}

// pinnedTools are the tools (module/cmd@version) the lessons install by version, for make kit to
// collect: go:generate lines, and what a lesson's own Makefile installs (lesson 11's
// controller-gen and kustomize).
func pinnedTools(ctx context.Context, all []lessons.Lesson) ([]string, error) {
	tools := generateTools(all)
	for _, l := range all {
		found, err := l.MakefileTools(ctx)
		if err != nil {
			return nil, err
		}
		tools = append(tools, found...)
	}
	return tools, nil
}

// scaffoldOnce runs a scaffolded lesson's CLI (lesson 11's kubebuilder) once in a scratch folder:
// it fetches every module a scaffold needs (kubebuilder runs go get and go mod tidy), so make
// test's scaffold check and a learner's own scaffold work offline. env is added (make kit points
// GOMODCACHE at the kit's modules).
func scaffoldOnce(ctx context.Context, l lessons.Lesson, env []string) error {
	if !l.Scaffolded() {
		return nil
	}
	fmt.Printf("      %s: scaffolding once with its pinned CLI (the modules a scaffold needs)\n", l.Name)
	scratch, err := os.MkdirTemp("", "prepare-scaffold-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if err := generated.Scaffold(ctx, l, filepath.Join(scratch, l.Name), env); err != nil {
		return fmt.Errorf("lesson %s: %v", l.Name, text.Tail(err.Error(), 10, "        "))
	}
	return nil
}

func generateTools(all []lessons.Lesson) []string {
	seen := map[string]bool{}
	var tools []string
	for _, l := range all {
		files, _ := filepath.Glob(filepath.Join(l.Dir, "*.go"))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			for _, m := range generateTool.FindAllStringSubmatch(string(data), -1) {
				if !seen[m[1]] {
					seen[m[1]] = true
					tools = append(tools, m[1])
				}
			}
		}
	}
	return tools
}

// buildLessons compiles each lesson's test binary as make check does (specrun.Build), showing
// how many packages are compiled; the binaries go to a scratch folder and are removed.
func buildLessons(ctx context.Context, root string) error {
	all, err := lessons.Discover(root)
	if err != nil {
		return err
	}
	scratch, err := os.MkdirTemp("", "prepare-lessons-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	for _, l := range all {
		start := time.Now()
		last := ""
		err := specrun.Build(ctx, l, specrun.BuildOptions{
			Binary:   filepath.Join(scratch, l.Name+".test"),
			Progress: func(p buildprogress.Progress) { last = p.String() },
		})
		if err != nil {
			return fmt.Errorf("lesson %s: %v", l.Name, text.Tail(err.Error(), 10, "        "))
		}
		if last == "" {
			last = "already warm"
		}
		fmt.Printf("      %-16s %s, %s\n", l.Name, last, time.Since(start).Round(time.Second))
	}
	return nil
}

// pullKindImage pulls the pinned node image with the engine that answers; without one there is
// nothing to pull (the local cluster needs no image), and that is said, not failed.
func pullKindImage(ctx context.Context) error {
	engine := cluster.DetectEngine(ctx)
	if !engine.Answers {
		return fmt.Errorf("no container engine answers (%s); the local cluster needs no image", engine.Detail)
	}
	image := versions.KindNodeImage()
	if engine.ImagePresent(ctx, image) {
		fmt.Println("      already present: " + image)
		return nil
	}
	if err := engine.Pull(ctx, image, os.Stdout); err != nil {
		return fmt.Errorf("%w; without the image, use the local cluster (CLUSTER=local), which make prepare has built", err)
	}
	return nil
}
