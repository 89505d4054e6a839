package binaries

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"workshop.local/scripts/versions"
)

// treeState is what a Kubernetes program's version stamp (gitTreeState in /version and
// --version=raw) says about the sources it was built from, in the words of Kubernetes' own
// build script (hack/lib/version.sh).
type treeState string

const (
	// etcdProgram is for etcd, which is not a Kubernetes program: its version is a constant in
	// its sources, and its own build (scripts/build_lib.sh) stamps only the commit, GitSHA.
	etcdProgram treeState = ""
	// archive is what hack/lib/version.sh reports for a build from exported sources with no git
	// tree. Ours are the tag's module zip from the Go module proxy (checked against go.sum), with
	// the dependency versions the tag's go.mod requires: no git checkout to call "clean".
	archive treeState = "archive"
	// dirty is for our own program on the tag's libraries (workshop-kube): sources the tag
	// does not have, as hack/lib/version.sh says of a tree with local changes.
	dirty treeState = "dirty"
)

// release is what the Go module cache records about a pinned tag (its module's .info file).
type release struct {
	Module  string // the module path it was read for, e.g. "k8s.io/kubernetes"
	Version string
	Time    time.Time // the tag's commit time: a build date every machine agrees on, unlike the clock's
	Origin  *struct {
		Hash string // the tag's git commit; recorded only when go fetched the module from git
	}
}

// kubernetesRelease is the pinned Kubernetes tag's release, etcdRelease etcd's.
func kubernetesRelease(ctx context.Context) (release, error) {
	return moduleRelease(ctx, "k8s.io/kubernetes", versions.Kubernetes())
}

func etcdRelease(ctx context.Context) (release, error) {
	return moduleRelease(ctx, "go.etcd.io/etcd/server/v3", versions.Etcd())
}

// moduleRelease reads the module's .info at version through `go mod download`, which answers
// from the module cache offline once the module is there (the build needs it anyway).
// It runs in an empty folder: inside a builder module, go would add the whole module graph's
// sums to its go.sum, which names workshop-kube's cached binary (sourceHash).
func moduleRelease(ctx context.Context, module, version string) (release, error) {
	dir, err := os.MkdirTemp("", "workshop-release-")
	if err != nil {
		return release{}, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), BuilderEnv("")...)
	out, runErr := cmd.Output() // on failure go still prints the JSON, with Error set
	var dl struct{ Info, Error string }
	if err := json.Unmarshal(out, &dl); err != nil || dl.Info == "" {
		hint := ""
		if looksOffline(dl.Error) {
			hint = "; the Go module proxy could not be reached (GOPROXY=" + goEnv("GOPROXY") + "): connect once to build"
		}
		return release{}, fmt.Errorf("reading the release to stamp the cluster's programs with (go mod download %s@%s): %v %s%s",
			module, version, runErr, dl.Error, hint)
	}
	data, err := os.ReadFile(dl.Info)
	if err != nil {
		return release{}, err
	}
	rel, err := parseRelease(data)
	rel.Module = module
	return rel, err
}

func parseRelease(info []byte) (release, error) {
	var r release
	if err := json.Unmarshal(info, &r); err != nil {
		return release{}, fmt.Errorf("the module's .info: %w", err)
	}
	if r.Time.IsZero() {
		return release{}, errors.New("the module's .info has no Time")
	}
	return r, nil
}

// commit is the tag's git commit, or a sentence saying why there is none: the default
// proxy.golang.org records no Origin in the .info it serves, and a made-up hash would mislead.
func (r release) commit() string {
	if r.Origin != nil && r.Origin.Hash != "" {
		return r.Origin.Hash
	}
	return "unknown (built from the Go module " + r.Module + "@" + r.Version + ", whose .info records no commit)"
}

// ldflags strips debug info (smaller, faster to link) and stamps the release: for Kubernetes
// programs the version variables the way hack/lib/version.sh does, into the same two packages, so
// /version, `kubectl version` and --version=raw say which release this is and when it was
// published; for etcd the one variable its own build sets, the commit.
func ldflags(tree treeState, r release) string {
	flags := []string{"-s", "-w"}
	if tree == etcdProgram {
		// Unstamped, etcd --version says "Git SHA: Not provided (use ./build instead of go build)".
		flags = append(flags, "-X", "'go.etcd.io/etcd/api/v3/version.GitSHA="+r.commit()+"'")
		return strings.Join(flags, " ")
	}
	major, minor := majorMinor(r.Version)
	values := [][2]string{
		{"gitVersion", r.Version}, {"gitMajor", major}, {"gitMinor", minor},
		{"gitCommit", r.commit()}, {"gitTreeState", string(tree)},
		{"buildDate", r.Time.UTC().Format(time.RFC3339)},
	}
	for _, pkg := range []string{"k8s.io/client-go/pkg/version", "k8s.io/component-base/version"} {
		for _, v := range values {
			// Quoted: go build splits -ldflags at spaces outside quotes, and the commit may be a sentence.
			flags = append(flags, "-X", "'"+pkg+"."+v[0]+"="+v[1]+"'")
		}
	}
	return strings.Join(flags, " ")
}

// majorMinor splits "v1.37.1" into "1" and "37".
func majorMinor(version string) (string, string) {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 2 {
		panic("KUBERNETES_VERSION must look like v1.37.1, got " + version)
	}
	return parts[0], parts[1]
}
