package binaries

import (
	"bytes"
	"strings"
	"testing"

	"workshop.local/scripts/internal/buildprogress"
)

// TestProgressLineCountsPackages proves the cluster build's progress line says what is being
// built, how many packages of the total are compiled, and the elapsed time; and that off a
// terminal it writes nothing between the ticks (a log gets a line every 15 seconds, not one
// per package).
func TestProgressLineCountsPackages(t *testing.T) {
	var out bytes.Buffer
	p := showProgress(&out, "kube-apiserver")
	if !strings.Contains(p.line(), "resolving modules") {
		t.Errorf("before the first compile: %q", p.line())
	}
	p.update(buildprogress.Progress{Compiled: 812, Total: 1650, Package: "k8s.io/api/core/v1"})
	if got := p.line(); !strings.Contains(got, "building kube-apiserver ... ") || !strings.Contains(got, "812 of 1650 packages compiled (k8s.io/api/core/v1)") {
		t.Errorf("progress line = %q", got)
	}
	p.stop()
	if got := out.String(); got != "  building kube-apiserver ...\n" {
		t.Errorf("off a terminal, only the opening line before the first tick; got %q", got)
	}
}

// TestBuilderPackagesNameEveryProgram proves make kit packs the modules of every program the
// cluster builds, kubectl and our own workshop-kube (the Kubernetes programs and the hollow node).
func TestBuilderPackagesNameEveryProgram(t *testing.T) {
	kube := strings.Join(BuilderPackages("kube"), " ")
	for _, want := range []string{"./workshopkube", "k8s.io/kubernetes/cmd/kubectl"} {
		if !strings.Contains(kube, want) {
			t.Errorf("BuilderPackages(kube) = %s, want it to hold %s", kube, want)
		}
	}
	if etcd := BuilderPackages("etcd"); len(etcd) != 1 || etcd[0] != "go.etcd.io/etcd/server/v3" {
		t.Errorf("BuilderPackages(etcd) = %v", etcd)
	}
}
