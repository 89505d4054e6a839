// Command cluster starts, stops and reports on the workshop cluster: kind where a container
// engine answers, otherwise the embedded local cluster. The Makefile's cluster targets call it:
//
//	go run ./scripts/cluster up|ensure|down|status|pull|envtest-assets
//
// ensure is up for other targets (make check): one line when the cluster already runs. pull
// fetches kind's node image ahead of time (make kind-pull), for a workshop with a slow network.
// envtest-assets builds etcd, kube-apiserver and kubectl if needed and prints the folder to use
// as KUBEBUILDER_ASSETS (make envtest-assets); it starts nothing.
//
// CLUSTER=auto|kind|local picks the kind of cluster (auto is the default).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/cluster up|ensure|down|status|pull|envtest-assets   (CLUSTER=auto|kind|local)")
		os.Exit(2)
	}
	// Ctrl-C cancels a build or a wait cleanly: partial binaries are removed, data is kept.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A closed stdout (`make cluster | head`) must not kill a start halfway: ignore SIGPIPE
	// so writes just fail while the cluster comes up.
	signal.Ignore(syscall.SIGPIPE)
	if err := run(ctx, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "cluster: "+err.Error())
		os.Exit(1)
	}
}

func run(ctx context.Context, command string) error {
	w, err := open()
	if err != nil {
		return err
	}
	switch command {
	case "up", "ensure":
		if err := w.choose(ctx); err != nil {
			return err
		}
		if command == "ensure" {
			return w.ensure(ctx)
		}
		return w.up(ctx)
	case "pull":
		return w.pull(ctx)
	case "down":
		return w.down(ctx)
	case "status":
		return w.status(ctx)
	case "envtest-assets":
		return w.envtestAssets(ctx)
	default:
		return fmt.Errorf("unknown command %q: use up, ensure, down, status, pull or envtest-assets", command)
	}
}
