// Package clusterkind decides which kind of workshop cluster CLUSTER=auto|kind|local asks for. The
// cluster tool (make cluster) and make doctor both use it, so the doctor's "auto would pick"
// line is the tool's own decision, not a copy of it.
package clusterkind

import (
	"fmt"
	"strings"

	"workshop.local/scripts/internal/kindcluster"
)

// Kinds of cluster. The chosen kind is remembered in .cluster/cluster-type, so that status and
// down act on what up started, and auto keeps reusing it.
const (
	Kind  = "kind"
	Local = "local"
)

// Decide applies CLUSTER (wanted): an explicit kind wins unless the workspace already has the
// other kind (existing, from .cluster/cluster-type, "" when none); auto reuses the existing kind,
// else picks kind when a container engine answers. why says so in words for the learner.
func Decide(wanted, existing string, engine kindcluster.Engine) (kind, why string, err error) {
	wanted = strings.ToLower(wanted)
	switch wanted {
	case "", "auto":
		switch {
		case existing != "":
			return existing, "this workspace's cluster is a " + existing + " cluster", nil
		case engine.Answers:
			return Kind, engine.Name + " answers, so kind can run", nil
		default:
			return Local, "no container engine answers (" + engine.Detail + "), so the embedded local cluster runs instead", nil
		}
	case Kind, Local:
		if existing != "" && existing != wanted {
			return "", "", fmt.Errorf("this workspace already has a %s cluster; stop it with `make cluster-down` before asking for CLUSTER=%s", existing, wanted)
		}
		return wanted, "CLUSTER=" + wanted, nil
	default:
		return "", "", fmt.Errorf("CLUSTER=%q is not a kind of cluster: use auto, kind or local", wanted)
	}
}

// NeedsEngine is true when Decide's answer depends on the container engine, so callers can
// skip probing it (a stopped Docker Desktop can take seconds to say so).
func NeedsEngine(wanted, existing string) bool {
	wanted = strings.ToLower(wanted)
	return wanted == Kind || ((wanted == "" || wanted == "auto") && existing == "") || (wanted != Local && existing == Kind)
}
