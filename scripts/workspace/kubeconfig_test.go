package workspace

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// writeKubeconfig writes a kubeconfig whose current context is contextName, pointing at server.
func writeKubeconfig(t *testing.T, contextName, server string) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["c"] = &clientcmdapi.Cluster{Server: server, InsecureSkipTLSVerify: true}
	cfg.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: "t"}
	cfg.Contexts[contextName] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	cfg.CurrentContext = contextName
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// countingServer counts every request it gets, so a test can prove none was sent.
func countingServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var requests atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"major":"1","minor":"37","gitVersion":"v1.37.1"}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &requests
}

func TestRefusesAForeignContextBeforeAnyRequest(t *testing.T) {
	srv, requests := countingServer(t)
	t.Setenv("LESSONS_KUBECONFIG", writeKubeconfig(t, "production", srv.URL))
	t.Setenv("LESSONS_ALLOW_CONTEXT", "")
	_, err := LoadConfig()
	if err == nil {
		t.Fatal("LoadConfig accepted the context \"production\"")
	}
	for _, want := range []string{`refusing kubeconfig context "production"`, "create and delete objects", "LESSONS_ALLOW_CONTEXT=production"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal should say %q; it says: %v", want, err)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests reached the foreign cluster; want none", n)
	}
}

func TestAcceptsAForeignContextTheLearnerNamed(t *testing.T) {
	srv, _ := countingServer(t)
	t.Setenv("LESSONS_KUBECONFIG", writeKubeconfig(t, "production", srv.URL))
	t.Setenv("LESSONS_ALLOW_CONTEXT", "production")
	cfg, err := LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckReachable(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
}

func TestAcceptsTheWorkshopContexts(t *testing.T) {
	srv, _ := countingServer(t)
	t.Setenv("LESSONS_ALLOW_CONTEXT", "")
	for _, name := range []string{LocalContext, KindContext} {
		t.Setenv("LESSONS_KUBECONFIG", writeKubeconfig(t, name, srv.URL))
		if _, err := LoadConfig(); err != nil {
			t.Errorf("context %s: %v", name, err)
		}
	}
}

func TestSaysToRunMakeClusterWhenThereIsNoKubeconfig(t *testing.T) {
	t.Setenv("LESSONS_KUBECONFIG", filepath.Join(t.TempDir(), "missing"))
	_, err := LoadConfig()
	if err == nil || !strings.Contains(err.Error(), "run `make cluster`") {
		t.Fatalf("want a message naming `make cluster`, got %v", err)
	}
}

func TestSaysToRunMakeClusterWhenTheClusterDoesNotAnswer(t *testing.T) {
	srv, _ := countingServer(t)
	url := srv.URL
	srv.Close() // nothing listens there any more
	t.Setenv("LESSONS_KUBECONFIG", writeKubeconfig(t, LocalContext, url))
	cfg, err := LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	err = CheckReachable(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "does not answer") || !strings.Contains(err.Error(), "make cluster") {
		t.Fatalf("want one line saying the cluster does not answer and naming `make cluster`, got %v", err)
	}
}

func TestMain(m *testing.M) {
	// These tests set their own kubeconfig; never let them find the learner's.
	os.Unsetenv("LESSONS_KUBECONFIG")
	os.Exit(m.Run())
}
