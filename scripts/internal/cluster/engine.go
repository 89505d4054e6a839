package cluster

import (
	"context"

	"workshop.local/scripts/internal/cluster/kind"
)

// Engine is the container engine the kind runtime would run in, as DetectEngine finds it.
type Engine = kind.Engine

// DetectEngine finds the container engine the kind runtime would use: what make doctor and make
// prepare report on, reached through the cluster package like every other fact of a runtime.
func DetectEngine(ctx context.Context) Engine { return kind.DetectEngine(ctx) }
