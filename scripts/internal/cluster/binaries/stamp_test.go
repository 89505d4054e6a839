package binaries

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"workshop.local/scripts/workspace"
)

// TestStampComesFromTheModuleInfo proves the version stamp takes the build date from the tag's
// .info, the commit from its Origin when go recorded one and a sentence otherwise, and sets both
// packages hack/lib/version.sh sets; etcd gets no Kubernetes stamp.
func TestStampComesFromTheModuleInfo(t *testing.T) {
	proxied, err := parseRelease([]byte(`{"Version":"v1.37.1","Time":"2026-09-23T17:06:22Z"}`))
	if err != nil {
		t.Fatal(err)
	}
	proxied.Module = "k8s.io/kubernetes" // as moduleRelease sets it
	direct, err := parseRelease([]byte(`{"Version":"v1.37.1","Time":"2026-09-23T17:06:22Z",` +
		`"Origin":{"VCS":"git","URL":"https://github.com/kubernetes/kubernetes","Hash":"0123456789abcdef0123456789abcdef01234567","Ref":"refs/tags/v1.37.1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := direct.commit(); got != "0123456789abcdef0123456789abcdef01234567" {
		t.Errorf("with an Origin, commit = %q, want its Hash", got)
	}
	if got := proxied.commit(); !strings.HasPrefix(got, "unknown (") || !strings.Contains(got, "k8s.io/kubernetes@v1.37.1") {
		t.Errorf("without an Origin, commit = %q, want a sentence naming the module", got)
	}
	flags := ldflags(archive, proxied)
	for _, pkg := range []string{"k8s.io/client-go/pkg/version", "k8s.io/component-base/version"} {
		for _, want := range []string{
			"-X '" + pkg + ".gitVersion=v1.37.1'", "-X '" + pkg + ".gitMajor=1'", "-X '" + pkg + ".gitMinor=37'",
			"-X '" + pkg + ".buildDate=2026-09-23T17:06:22Z'", "-X '" + pkg + ".gitTreeState=archive'",
			"-X '" + pkg + ".gitCommit=" + proxied.commit() + "'",
		} {
			if !strings.Contains(flags, want) {
				t.Errorf("ldflags lack %s:\n%s", want, flags)
			}
		}
	}
	etcd := release{Module: "go.etcd.io/etcd/server/v3", Version: "v3.6.16", Time: proxied.Time}
	if got, want := ldflags(etcdProgram, etcd), "-s -w -X 'go.etcd.io/etcd/api/v3/version.GitSHA="+etcd.commit()+"'"; got != want {
		t.Errorf("etcd's ldflags = %q, want %q: etcd's own build stamps only GitSHA", got, want)
	}
	if strings.Contains(ldflags(etcdProgram, etcd), "k8s.io") {
		t.Error("etcd must not get a Kubernetes version stamp")
	}
	if _, err := parseRelease([]byte(`{"Version":"v1.37.1"}`)); err == nil {
		t.Error("an .info without Time must not stamp a 0001-01-01 build date")
	}
}

// TestBuiltProgramsReportTheirStamp runs the cached API server (workshop-kube kube-apiserver)
// with --version=raw, and etcd with --version, and checks they report what the module cache says
// about the pinned tags: the link flags reached the version variables.
func TestBuiltProgramsReportTheirStamp(t *testing.T) {
	root, err := workspace.Root()
	if err != nil {
		t.Fatal(err)
	}
	bins, err := Default(root)
	if err != nil {
		t.Fatal(err)
	}
	apiserver, command := bins.Command("kube-apiserver")
	if _, err := os.Stat(apiserver); err != nil {
		t.Skipf("the cluster binaries are not built in %s (make cluster builds them)", bins.Dir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rel, err := kubernetesRelease(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(ctx, apiserver, append(command, "--version=raw")...).CombinedOutput()
	if err != nil {
		t.Fatalf("kube-apiserver --version=raw: %v\n%s", err, out)
	}
	for _, want := range []string{
		`GitVersion:"` + rel.Version + `"`, `GitCommit:"` + rel.commit() + `"`,
		`GitTreeState:"dirty"`, // our own main package runs it (binaries.go)
		`BuildDate:"` + rel.Time.UTC().Format(time.RFC3339) + `"`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("kube-apiserver --version=raw lacks %s:\n%s", want, out)
		}
	}

	etcdRel, err := etcdRelease(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err = exec.CommandContext(ctx, bins.Path("etcd"), "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("etcd --version: %v\n%s", err, out)
	}
	for _, want := range []string{"etcd Version: " + strings.TrimPrefix(etcdRel.Version, "v"), "Git SHA: " + etcdRel.commit()} {
		if !strings.Contains(string(out), want) {
			t.Errorf("etcd --version lacks %q:\n%s", want, out)
		}
	}
}
