package project

import (
	"fmt"
	"os"
	"os/exec"
)

// KubectlEnv names the environment variable through which the tools give a lesson's specs the
// kubectl to hand to the project's Makefile (make install pipes kustomize into "$(KUBECTL)"
// apply). The tools find it before the specs start (the one built with the local cluster, at
// the server's version; else one on PATH; else they build it), so a spec binary never holds the
// cluster's builder.
const KubectlEnv = "WORKSHOP_KUBECTL"

// Kubectl is the kubectl the tools named in KubectlEnv; run without them (go test by hand), one
// on PATH.
func Kubectl() (string, error) {
	if named := os.Getenv(KubectlEnv); named != "" {
		return named, nil
	}
	onPath, err := exec.LookPath("kubectl")
	if err != nil {
		return "", fmt.Errorf("no kubectl: %s is unset (make check sets it) and none is on PATH", KubectlEnv)
	}
	return onPath, nil
}
