package versions_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	kinddefaults "sigs.k8s.io/kind/pkg/apis/config/defaults"

	"workshop.local/scripts/versions"
)

// TestEveryGoModMatchesThePins keeps versions.env the one place where versions are decided:
// every go.mod in the workspace must require exactly the pinned version of a pinned module.
func TestEveryGoModMatchesThePins(t *testing.T) {
	pins := versions.Load()
	for _, path := range goModFiles(t) {
		if strings.Contains(path, filepath.Join("cluster", "local", "build")) {
			continue // the builder modules follow Kubernetes' own versions: see the next test
		}
		mod := parse(t, path)
		for _, req := range mod.Require {
			if want, pinned := pins[req.Mod.Path]; pinned && req.Mod.Version != want {
				t.Errorf("%s requires %s %s, but versions.env pins %s: run `make pins`", path, req.Mod.Path, req.Mod.Version, want)
			}
		}
	}
}

// TestBuilderModulesMatchThePins checks the local cluster's builder modules: Kubernetes, its
// staging modules and etcd at the pinned versions.
func TestBuilderModulesMatchThePins(t *testing.T) {
	build := filepath.Join(root(t), "scripts", "internal", "cluster", "local", "build")
	kube := parse(t, filepath.Join(build, "kube", "go.mod"))
	wantRequire(t, kube, "k8s.io/kubernetes", versions.Kubernetes())
	staging := versions.Load().Get("KUBERNETES_STAGING_VERSION")
	for _, r := range kube.Replace {
		if r.New.Version != staging {
			t.Errorf("kube builder replaces %s with %s, want %s", r.Old.Path, r.New.Version, staging)
		}
	}
	wantRequire(t, parse(t, filepath.Join(build, "etcd", "go.mod")), "go.etcd.io/etcd/server/v3", versions.Etcd())
}

// TestEveryGoModIsTidy: `go mod tidy` leaves every module of the workspace as it is (each module
// on its own, outside go.work, the way tidy always runs), so a go.mod says what its module really
// needs, direct and indirect, and nothing it does not. make pins tidies after pinning.
func TestEveryGoModIsTidy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy in every module")
	}
	for _, path := range goModFiles(t) {
		cmd := exec.Command("go", "mod", "tidy", "-diff")
		cmd.Dir = filepath.Dir(path)
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			rel, _ := filepath.Rel(root(t), path)
			t.Errorf("%s is not tidy (run make pins, which tidies every module): %v\n%s", rel, err, out)
		}
	}
}

func TestKindConfigUsesThePinnedImage(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root(t), "kind", "cluster.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "image: "+versions.KindNodeImage()) {
		t.Errorf("kind/cluster.yaml does not use KIND_NODE_IMAGE %s", versions.KindNodeImage())
	}
}

// TestKindNodeImageIsKindsDefault: each kind release is tested with its own default node image
// (sigs.k8s.io/kind/pkg/apis/config/defaults.Image); pinning another one is a choice to make in
// versions.env on purpose, with this test changed to say why.
func TestKindNodeImageIsKindsDefault(t *testing.T) {
	if got := versions.KindNodeImage(); got != kinddefaults.Image {
		t.Errorf("KIND_NODE_IMAGE is %s, but kind %s defaults to %s: pin kind's own default", got, versions.Load().Get("sigs.k8s.io/kind"), kinddefaults.Image)
	}
}

func wantRequire(t *testing.T, mod *modfile.File, path, version string) {
	t.Helper()
	for _, r := range mod.Require {
		if r.Mod.Path == path {
			if r.Mod.Version != version {
				t.Errorf("%s requires %s %s, want %s", mod.Module.Mod.Path, path, r.Mod.Version, version)
			}
			return
		}
	}
	t.Errorf("%s does not require %s", mod.Module.Mod.Path, path)
}

func goModFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir(root(t), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root(t) {
			return filepath.SkipDir // .git, .cluster, .cache
		}
		if d.Name() == "go.mod" {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func parse(t *testing.T, path string) *modfile.File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mod, err := modfile.Parse(path, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
