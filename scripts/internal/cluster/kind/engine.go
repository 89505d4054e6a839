// Package kind runs the workshop cluster with kind, through the kind Go library, when a
// container engine answers on this machine.
package kind

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"workshop.local/scripts/internal/text"
)

// Engine is what we found of one container engine kind can use.
type Engine struct {
	Name      string // "docker", "podman" or "nerdctl": the client kind will run
	Installed bool   // its client is on PATH
	Answers   bool   // its engine answered `info`
	Detail    string // why it does not answer, for the learner
	Why       string // how it was picked, when not by kind's own detection order
}

// engineNames is kind's own detection order (cluster.DetectNodeProvider in
// sigs.k8s.io/kind/pkg/cluster/provider.go).
var engineNames = []string{"docker", "nerdctl", "podman"}

// infoTimeout bounds `docker info`: a stopped Docker Desktop can make the client hang.
const infoTimeout = 8 * time.Second

// DetectEngine picks the engine the way kind's CLI does, then asks it whether it answers.
//
// KIND_EXPERIMENTAL_PROVIDER wins, as in kind's pkg/internal/runtime.GetDefault. Otherwise the
// first engine that answers `info`, or, when none does, the first installed one (Answers false,
// with Detail), or an Engine with Installed false.
//
// kind's own DetectNodeProvider only checks that a client prints its version, which is true
// with Docker installed but not running; asking the engine for `info` tells them apart. Like
// kind (docker.IsAvailable), a `docker` whose `-v` does not say "Docker version" is not
// Docker: it is Podman's podman-docker shim, so Podman is driven as Podman.
func DetectEngine(ctx context.Context) Engine {
	if forced := os.Getenv("KIND_EXPERIMENTAL_PROVIDER"); forced != "" {
		if name, ok := forcedEngine(forced); ok {
			engine := probeEngine(ctx, name)
			engine.Why = "KIND_EXPERIMENTAL_PROVIDER=" + forced
			return engine
		}
	}
	var firstInstalled *Engine
	for _, name := range engineNames {
		engine := probeEngine(ctx, name)
		if name == "docker" && engine.Installed && !isRealDocker(ctx) {
			continue // the podman-docker shim: podman comes later in the order
		}
		if engine.Answers {
			return engine
		}
		if engine.Installed && firstInstalled == nil {
			firstInstalled = &engine
		}
	}
	if firstInstalled != nil {
		return *firstInstalled
	}
	return Engine{Detail: "no container engine (docker, podman or nerdctl) is installed"}
}

// forcedEngine maps KIND_EXPERIMENTAL_PROVIDER to a client name, as kind's CLI accepts it;
// kind ignores (with a warning) any other value, and so do we.
func forcedEngine(value string) (string, bool) {
	switch value {
	case "docker", "podman", "nerdctl", "finch", "nerdctl.lima":
		return value, true
	}
	return "", false
}

// isRealDocker asks `docker -v`, as kind's docker.IsAvailable does.
func isRealDocker(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, infoTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "docker", "-v").Output()
	return err == nil && strings.HasPrefix(string(out), "Docker version")
}

func probeEngine(ctx context.Context, name string) Engine {
	if _, err := exec.LookPath(name); err != nil {
		return Engine{Name: name, Detail: "`" + name + "` is not on PATH"}
	}
	ctx, cancel := context.WithTimeout(ctx, infoTimeout)
	defer cancel()
	var stderr strings.Builder
	cmd := exec.CommandContext(ctx, name, "info")
	cmd.Stderr = &stderr // the reason is on stderr; stdout holds the client's own details
	if err := cmd.Run(); err == nil {
		return Engine{Name: name, Installed: true, Answers: true}
	}
	detail := text.FirstLine(stderr.String())
	if detail == "" {
		detail = "no output"
	}
	if ctx.Err() != nil {
		detail = fmt.Sprintf("`%s info` did not answer within %s", name, infoTimeout)
	}
	return Engine{Name: name, Installed: true, Detail: detail}
}

// Explain is one sentence for the learner on why kind cannot be used, and the way out.
func (e Engine) Explain() string {
	if !e.Installed {
		if e.Why != "" {
			return fmt.Sprintf("%s asks for %s, but %s; install it, or use the local cluster: CLUSTER=local make cluster", e.Why, e.Name, e.Detail)
		}
		return "No container engine is installed (docker, podman or nerdctl), so kind cannot run; use the local cluster: CLUSTER=local make cluster"
	}
	return fmt.Sprintf("%s is installed but its engine is not running (%s): %s, or use the local cluster: CLUSTER=local make cluster",
		e.Name, e.Detail, e.startHint(runtime.GOOS))
}

// startHint says how to start this engine on the operating system goos: Podman and Docker run
// in a virtual machine on macOS and Windows, and as a service on Linux.
func (e Engine) startHint(goos string) string {
	switch {
	case e.Name == "podman" && goos != "linux":
		return "start its virtual machine with `podman machine start`"
	case e.Name == "podman":
		return "start it with `systemctl --user start podman.socket` (or run podman as root)"
	case e.Name == "docker" && goos != "linux":
		return "start Docker Desktop and wait for it to say it is running"
	case e.Name == "docker":
		return "start it with `sudo systemctl start docker` (Docker Desktop: open it)"
	default:
		return fmt.Sprintf("start %s's engine", e.Name)
	}
}
