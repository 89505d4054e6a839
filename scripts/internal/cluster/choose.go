package cluster

import (
	"fmt"
	"strings"

	"workshop.local/scripts/internal/cluster/kind"
)

// Probe answers the questions Decide asks, only when it asks them: finding out whether
// the node image can be pulled, or asking the learner, costs time, and most decisions never
// need to. The cluster tool probes the machine; make doctor answers from what it gathered.
type Probe interface {
	// Existing is the runtime of this workspace's cluster while that cluster exists ("" if none).
	Existing() string
	// Active says whether a cluster of that runtime would collide with a new one of the other.
	Active(runtime string) bool
	// Engine is the container engine, as kind.DetectEngine finds it.
	Engine() kind.Engine
	// ImagePresent says whether the engine holds the pinned kind node image.
	ImagePresent() bool
	// Pullable is nil when the image can be pulled, else why not.
	Pullable() error
	// LocalInstead asks whether to build the local cluster while the engine is stopped (false
	// without a terminal to ask on).
	LocalInstead(engine kind.Engine) bool
}

// Decide applies CLUSTER (wanted): an explicit runtime wins unless the other one is running;
// auto reuses the cluster this workspace has, else picks kind when it can really start, else
// local. why says so in one sentence, so nothing about the choice is a surprise. make cluster
// and make doctor both call it: the doctor's "auto would pick" is the tool's own decision.
func Decide(wanted string, p Probe) (runtime, why string, err error) {
	wanted = strings.ToLower(wanted)
	if wanted == "" || wanted == "auto" {
		return decideAuto(p)
	}
	if err := Valid(wanted); err != nil {
		return "", "", err
	}
	if other := p.Existing(); other != "" && other != wanted && p.Active(other) {
		return "", "", fmt.Errorf("this workspace's %s cluster is running; stop it with `make cluster-down` before asking for CLUSTER=%s", other, wanted)
	}
	return wanted, "CLUSTER=" + wanted, nil
}

// decideAuto: the cluster this workspace already has; else kind when an engine answers and the
// pinned node image is here or can be pulled; else local. An engine installed but stopped is
// an error (unless the learner says otherwise), not a silent 10-minute build of the local cluster.
func decideAuto(p Probe) (runtime, why string, err error) {
	if existing := p.Existing(); existing != "" {
		return existing, "this workspace's cluster is a " + existing + " cluster", nil
	}
	engine := p.Engine()
	switch {
	case engine.Answers && p.ImagePresent():
		return Kind, engine.Name + " answers and holds the kind node image", nil
	case engine.Answers:
		if err := p.Pullable(); err != nil {
			return Local, fmt.Sprintf("%s answers but the kind node image cannot be pulled: %v; so the local cluster runs instead. "+
				"For kind, pull it with `make kind-pull`; CLUSTER=local makes this choice silent", engine.Name, err), nil
		}
		return Kind, engine.Name + " answers and the kind node image can be pulled", nil
	case engine.Installed:
		if p.LocalInstead(engine) {
			return Local, "you chose it while " + engine.Name + " is stopped", nil
		}
		return "", "", fmt.Errorf("%s (it builds Kubernetes from source, about 10 minutes the first time)", engine.Explain())
	default:
		return Local, "no container engine (docker, podman or nerdctl) is installed, so the local cluster runs; CLUSTER=local makes this choice silent", nil
	}
}
