package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// registration is what a runtime registers: what it needs on the machine, known before it is
// made (make doctor asks without making one), and how to make it for a cluster folder.
type registration struct {
	needs Needs
	build func(ctx context.Context, c *Cluster) (Runtime, error)
}

// registry holds the runtimes, each registered by its own file's init. A new runtime is one more
// file; the generic code never names it.
var registry = map[string]registration{}

func register(name string, needs Needs, build func(context.Context, *Cluster) (Runtime, error)) {
	registry[name] = registration{needs, build}
}

// NeedsOf says what the named runtime needs on the machine (nothing for an unknown name).
func NeedsOf(name string) Needs { return registry[name].needs }

// Names are the registered runtimes' names, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Valid says whether CLUSTER=wanted names a runtime ("" and auto let Decide choose).
func Valid(wanted string) error {
	wanted = strings.ToLower(wanted)
	if wanted == "" || wanted == "auto" || registry[wanted].build != nil {
		return nil
	}
	return fmt.Errorf("CLUSTER=%q is not a runtime of the workshop cluster: use auto, %s", wanted, strings.Join(Names(), " or "))
}

// runtimeNamed makes the named runtime for this cluster folder.
func (c *Cluster) runtimeNamed(ctx context.Context, name string) (Runtime, error) {
	build := registry[name].build
	if build == nil {
		return nil, fmt.Errorf("the cluster folder %s records a %q cluster, which this workspace does not know: `make cluster-down` cannot stop it; remove %s", c.dir, name, c.dir)
	}
	return build(ctx, c)
}
