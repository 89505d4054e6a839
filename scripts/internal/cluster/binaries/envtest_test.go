package binaries

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"workshop.local/scripts/versions"
	"workshop.local/scripts/workspace"
)

// TestEnvtestRunsOnTheBuiltAssets is the proof behind `make envtest-assets`: controller-runtime's
// envtest, given the folder it prints as KUBEBUILDER_ASSETS, starts its own etcd and API server
// from this build (on free ports, not the workshop cluster), stores a ConfigMap, serves the
// stamped /version, lets the kubectl beside them talk to it, and stops.
func TestEnvtestRunsOnTheBuiltAssets(t *testing.T) {
	bins := builtEnvtestAssets(t)
	dir, err := bins.EnsureEnvtest(context.Background(), io.Discard) // only links: all are built
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBEBUILDER_ASSETS", dir)
	useExisting := false // never USE_EXISTING_CLUSTER's cluster: that may be someone's real one
	env := &envtest.Environment{
		UseExistingCluster:       &useExisting,
		ControlPlaneStartTimeout: time.Minute, // a busy 2-core machine; the default is 20 s
		ControlPlaneStopTimeout:  time.Minute,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("envtest did not start on %s: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("envtest did not stop: %v", err)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs := kubernetes.NewForConfigOrDie(cfg)
	storesAConfigMap(ctx, t, cs)
	servesTheStampedVersion(t, cs)
	kubectlTalksToIt(t, env)
}

// builtEnvtestAssets skips the test, saying why, when the programs are not built on this machine.
func builtEnvtestAssets(t *testing.T) Binaries {
	root, err := workspace.Root()
	if err != nil {
		t.Fatal(err)
	}
	bins, err := Default(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range envtestAssets {
		if _, err := os.Stat(bins.Path(name)); err != nil { // name: the binary in the cache
			t.Skipf("%s is not built in %s: `make envtest-assets` (or make cluster) builds it", name, bins.Dir)
		}
	}
	return bins
}

func storesAConfigMap(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	want := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "envtest-assets", Namespace: "default"},
		Data:       map[string]string{"built": "from source"},
	}
	if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, want, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create a ConfigMap: %v", err)
	}
	got, err := cs.CoreV1().ConfigMaps("default").Get(ctx, want.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("read the ConfigMap back: %v", err)
	}
	if got.Data["built"] != "from source" || got.UID == "" {
		t.Errorf("the API server returned %v, want the ConfigMap as created, with a UID", got)
	}
}

func servesTheStampedVersion(t *testing.T, cs kubernetes.Interface) {
	v, err := cs.Discovery().ServerVersion()
	if err != nil {
		t.Fatalf("GET /version: %v", err)
	}
	if v.GitVersion != versions.Kubernetes() || strings.Contains(v.GitCommit, "$Format") || strings.HasPrefix(v.BuildDate, "1970") {
		t.Errorf("/version: gitVersion %q, gitCommit %q, buildDate %q; want %s with a stamped gitCommit and buildDate",
			v.GitVersion, v.GitCommit, v.BuildDate, versions.Kubernetes())
	}
}

func kubectlTalksToIt(t *testing.T, env *envtest.Environment) {
	// A user of envtest's own making, with a kubeconfig kubectl reads; system:masters may do all.
	user, err := env.AddUser(envtest.User{Name: "envtest-assets", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatalf("add an envtest user: %v", err)
	}
	kubectl, err := user.Kubectl()
	if err != nil {
		t.Fatalf("kubectl for that user: %v", err)
	}
	stdout, stderr, err := kubectl.Run("version", "-o", "json")
	if err != nil {
		errOut, _ := io.ReadAll(stderr)
		t.Fatalf("kubectl version: %v\n%s", err, errOut)
	}
	var got struct {
		Client struct{ GitVersion string } `json:"clientVersion"`
		Server struct{ GitVersion string } `json:"serverVersion"`
	}
	if err := json.NewDecoder(stdout).Decode(&got); err != nil {
		t.Fatalf("kubectl version -o json: %v", err)
	}
	if got.Client.GitVersion != versions.Kubernetes() || got.Server.GitVersion != versions.Kubernetes() {
		t.Errorf("kubectl version: client %q, server %q; want both %s", got.Client.GitVersion, got.Server.GitVersion, versions.Kubernetes())
	}
}
