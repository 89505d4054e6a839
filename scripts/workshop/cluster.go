package main

import (
	"context"
	"errors"
	"os"

	"github.com/spf13/cobra"

	"workshop.local/scripts/internal/cluster"
)

// clusterCommand is `workshop cluster up|ensure|down|status|why|pull|prune|envtest-assets`: kind where
// a container engine answers and its node image can be had, else the local cluster built from
// source. CLUSTER=auto|kind|local decides (docs/cluster.md).
func clusterCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Start, stop and report on the workshop cluster (CLUSTER=auto|kind|local)",
	}
	sub := func(use, target, short string, run func(*cluster.Cluster, context.Context) error) *cobra.Command {
		c := &cobra.Command{
			Use: use, Short: short, Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				w, err := cluster.Open(os.Stdout, clusterRuntime)
				if err != nil {
					return err
				}
				err = run(w, cmd.Context())
				if errors.Is(err, cluster.ErrNotRunning) {
					return errVerdict // the status lines said what is down
				}
				return err
			},
		}
		if target != "" {
			asMake(c, target)
		}
		return c
	}
	cmd.AddCommand(
		sub("up", "cluster", "Start (or reuse) the workshop cluster; writes .cluster/kubeconfig",
			(*cluster.Cluster).Up),
		sub("ensure", "", "Start the cluster only if it is not running (what make check does first)",
			(*cluster.Cluster).Ensure),
		sub("down", "cluster-down", "Stop the workshop cluster and free its ports (local: data kept; kind: deleted)",
			(*cluster.Cluster).Down),
		sub("status", "cluster-status", "Say what is running and whether the API answers (exit 1 when it is not running)",
			(*cluster.Cluster).Status),
		sub("why", "cluster-why", "Say which runtime CLUSTER picks on this machine, and why; starts nothing",
			(*cluster.Cluster).Why),
		sub("pull", "kind-pull", "Pull kind's node image now (several hundred MB), so that make cluster later needs no network",
			(*cluster.Cluster).Pull),
		sub("prune", "cluster-prune", "Remove old cluster builds from the shared binary cache that no clone on this machine uses",
			(*cluster.Cluster).Prune),
		sub("envtest-assets", "envtest-assets", "Print a folder for KUBEBUILDER_ASSETS: etcd, kube-apiserver, kubectl from the local cluster's build",
			(*cluster.Cluster).EnvtestAssets),
	)
	return cmd
}
