package workspace

import (
	"fmt"
	"os"

	"k8s.io/client-go/tools/clientcmd"
)

// CheckDefaultKubeconfig checks the kubeconfig that programs which load their own find: kubectl,
// and a kubebuilder project's ctrl.GetConfigOrDie, read $KUBECONFIG (a list of files, merged)
// with client-go's default loading rules, else ~/.kube/config. Its current context must pass
// the checks LoadConfig makes (a workshop context leading to this workspace's own cluster, or
// the one LESSONS_ALLOW_CONTEXT names), before such a program sends any request. Lesson 11's
// Makefile runs it (./guard) before make run, make install and make uninstall.
func CheckDefaultKubeconfig() error {
	raw, err := clientcmd.NewDefaultClientConfigLoadingRules().Load()
	if err != nil {
		return fmt.Errorf("read kubeconfig %s: %w", os.Getenv(clientcmd.RecommendedConfigPathEnvVar), err)
	}
	if len(raw.Contexts) == 0 {
		// The loading rules skip files that do not exist: no file, or no context in it.
		return fmt.Errorf("no workshop cluster yet (no kubeconfig context in %q): run `make cluster`, or `make check`, which starts it for you", os.Getenv(clientcmd.RecommendedConfigPathEnvVar))
	}
	return allowContext(raw)
}
