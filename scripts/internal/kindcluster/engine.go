// Package kindcluster runs the workshop cluster with kind, through the kind Go library, when a
// container engine answers on this machine.
package kindcluster

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"workshop.local/scripts/internal/text"
)

// Engine is what we found of one container engine kind can use.
type Engine struct {
	Name      string // "docker", "podman" or "nerdctl"
	Installed bool   // its client is on PATH
	Answers   bool   // its engine answered `info`
	Detail    string // why it does not answer, for the learner
}

// engineNames is kind's own detection order (cluster.DetectNodeProvider).
var engineNames = []string{"docker", "nerdctl", "podman"}

// infoTimeout bounds `docker info`: a stopped Docker Desktop can make the client hang.
const infoTimeout = 8 * time.Second

// DetectEngine returns the first engine that answers, or, when none does, the first one that
// is installed (Answers false, with Detail), or an Engine with Installed false.
//
// kind's own cluster.DetectNodeProvider only checks that a client prints its version, which
// is true with Docker installed but not running; asking the engine for `info` tells them apart.
func DetectEngine(ctx context.Context) Engine {
	var firstInstalled *Engine
	for _, name := range engineNames {
		engine := probeEngine(ctx, name)
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

func probeEngine(ctx context.Context, name string) Engine {
	if _, err := exec.LookPath(name); err != nil {
		return Engine{Name: name}
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
		return "No container engine is installed (docker, podman or nerdctl), so kind cannot run; use the local cluster: CLUSTER=local make cluster"
	}
	return fmt.Sprintf("%s is installed but its engine is not running (%s): start it (Docker Desktop, or `sudo systemctl start %s`), or use the local cluster: CLUSTER=local make cluster",
		e.Name, e.Detail, e.Name)
}
