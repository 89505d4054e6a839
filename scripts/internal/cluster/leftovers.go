package cluster

import (
	"context"
	"fmt"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"workshop.local/scripts/leftovers"
)

// sweepLeftovers deletes the webhook configurations, admission policies and conversion CRDs
// that a killed spec run left behind (lesson 12's), once the cluster answers: one that fails
// closed against a server that is gone would block every later write it matches. The specs'
// harness sweeps the same way before each run; doing it here too means a learner who restarts
// the cluster after a crash gets a usable one even before the next make check. Best effort: a
// failure is reported, never fatal.
func (c *Cluster) sweepLeftovers(ctx context.Context) {
	cfg, err := clientcmd.BuildConfigFromFlags("", c.Kubeconfig())
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		err = leftovers.SweepAbandoned(ctx, cfg, func(format string, args ...any) {
			fmt.Fprintf(c.out, "  "+format, args...)
		})
	}
	if err != nil {
		fmt.Fprintf(c.out, "Could not look for webhooks a killed spec run left behind (%v); the next make check will.\n", err)
	}
}
