// Command guard exits with the workspace's refusal when $KUBECONFIG's current context is not the
// workshop cluster's (workspace.CheckDefaultKubeconfig), and silently otherwise. Lesson 11's
// Makefile builds and runs it before make run, make install and make uninstall: the
// kubebuilder scaffold's manager (ctrl.GetConfigOrDie) and kubectl load $KUBECONFIG themselves,
// without the workspace's LoadConfig and its checks.
package main

import (
	"fmt"
	"os"

	"workshop.local/scripts/workspace"
)

func main() {
	if err := workspace.CheckDefaultKubeconfig(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
