// Command workshop-kube is the workshop cluster's Kubernetes programs in one binary, the way
// hyperkube once shipped them: kube-apiserver, kube-controller-manager and kube-scheduler from the
// pinned Kubernetes release, unchanged, and our hollow node (../hollownode).
//
// Why one binary: the four programs share most of their code (client-go, apimachinery, the API
// types, the Go runtime). Four processes of one file share its pages in memory, where four
// binaries each load their own copy: the cluster takes about 150 MB (a quarter) less of the
// machine's memory (docs/benchmarks.md), and the cache holds one 141 MB file instead of four that
// add up to 395 MB.
//
// It runs the program its first argument names, or, when started under one of those names (a
// link named kube-apiserver, as envtest's KUBEBUILDER_ASSETS folder has), the program it is
// called:
//
//	workshop-kube kube-apiserver --etcd-servers=...
//	kube-apiserver --etcd-servers=...
package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	_ "time/tzdata" // as the upstream mains: time zones for CronJobs

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // as the upstream mains: the JSON log format
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // as the upstream mains: client-go's metrics
	_ "k8s.io/component-base/metrics/prometheus/version"  // as the upstream mains: the version metric
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"

	"workshop.local/clusterbuild/kube/hollownode"
)

// programs maps each program's name to its main: the upstream ones are what their cmd/<name>
// main.go runs, with the arguments after the name.
var programs = map[string]func(args []string) int{
	"kube-apiserver":          cobraMain(apiserver.NewAPIServerCommand),
	"kube-controller-manager": cobraMain(controllermanager.NewControllerManagerCommand),
	"kube-scheduler": cobraMain(func() *cobra.Command {
		return scheduler.NewSchedulerCommand()
	}),
	"hollow-node": hollownode.Main,
}

func cobraMain(newCommand func() *cobra.Command) func(args []string) int {
	return func(args []string) int {
		command := newCommand()
		command.SetArgs(args)
		return cli.Run(command)
	}
}

func main() {
	if run, ok := programs[filepath.Base(os.Args[0])]; ok {
		os.Exit(run(os.Args[1:]))
	}
	if len(os.Args) > 1 {
		if run, ok := programs[os.Args[1]]; ok {
			os.Exit(run(os.Args[2:]))
		}
	}
	names := slices.Sorted(maps.Keys(programs))
	fmt.Fprintf(os.Stderr, "usage: %s <program> [flags]\nprograms: %s\n", filepath.Base(os.Args[0]), strings.Join(names, ", "))
	os.Exit(2)
}
