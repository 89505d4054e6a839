package workspace

import (
	"context"
	"encoding/pem"
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

// writeKubeconfig writes a kubeconfig whose current context is contextName, pointing at server
// and trusting ca (PEM).
func writeKubeconfig(t *testing.T, contextName, server string, ca []byte) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["c"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: ca}
	cfg.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: "t"}
	cfg.Contexts[contextName] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	cfg.CurrentContext = contextName
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// serverCA is the PEM of the test server's certificate, which its clients trust as their CA.
func serverCA(srv *httptest.Server) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
}

// trusting makes a cluster folder (WORKSHOP_CLUSTER_DIR) that records server and ca as its
// cluster's, as make cluster records them.
func trusting(t *testing.T, server string, ca []byte) {
	t.Helper()
	dir := t.TempDir()
	record := identity(&clientcmdapi.Cluster{Server: server, CertificateAuthorityData: ca})
	if err := os.WriteFile(filepath.Join(dir, TrustedFile), []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WORKSHOP_CLUSTER_DIR", dir)
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
	t.Setenv("LESSONS_KUBECONFIG", writeKubeconfig(t, "production", srv.URL, serverCA(srv)))
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
	t.Setenv("LESSONS_KUBECONFIG", writeKubeconfig(t, "production", srv.URL, serverCA(srv)))
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
	trusting(t, srv.URL, serverCA(srv))
	for _, name := range []string{LocalContext, KindContext} {
		t.Setenv("LESSONS_KUBECONFIG", writeKubeconfig(t, name, srv.URL, serverCA(srv)))
		cfg, err := LoadConfig()
		if err != nil {
			t.Errorf("context %s: %v", name, err)
			continue
		}
		if err := CheckReachable(context.Background(), cfg); err != nil {
			t.Errorf("context %s: %v", name, err)
		}
	}
}

// TestRefusesAWorkshopNameOnAnotherCluster: a context named like the workspace's is refused,
// before any request, when its CA is not the one make cluster recorded, when the workspace has
// recorded none, or when its server is not on this machine.
func TestRefusesAWorkshopNameOnAnotherCluster(t *testing.T) {
	srv, requests := countingServer(t)
	// Every httptest server has the same certificate: another cluster's CA is another PEM.
	otherCA := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("another cluster")})
	t.Setenv("LESSONS_ALLOW_CONTEXT", "")
	cases := []struct {
		name, server  string
		trustedServer string
		trusted       []byte
		want          string
	}{
		{"another cluster's CA", srv.URL, srv.URL, otherCA, "is not the cluster `make cluster` recorded"},
		{"another server on this machine", srv.URL, "https://127.0.0.1:1", serverCA(srv), "is not the cluster `make cluster` recorded"},
		{"nothing recorded yet", srv.URL, "", nil, "run `make cluster` once"},
		{"a server elsewhere", "https://192.0.2.10:6443", srv.URL, serverCA(srv), "not at this machine"},
	}
	for _, c := range cases {
		if c.trusted != nil {
			trusting(t, c.trustedServer, c.trusted)
		} else {
			t.Setenv("WORKSHOP_CLUSTER_DIR", t.TempDir())
		}
		t.Setenv("LESSONS_KUBECONFIG", writeKubeconfig(t, LocalContext, c.server, serverCA(srv)))
		_, err := LoadConfig()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want a refusal saying %q, got %v", c.name, c.want, err)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests reached the cluster named like the workspace's; want none", n)
	}
}

// TestTrustRecordsTheKubeconfigsCA: what make cluster records is what LoadConfig then accepts.
func TestTrustRecordsTheKubeconfigsCA(t *testing.T) {
	srv, _ := countingServer(t)
	dir := t.TempDir()
	t.Setenv("WORKSHOP_CLUSTER_DIR", dir)
	t.Setenv("LESSONS_ALLOW_CONTEXT", "")
	data, err := os.ReadFile(writeKubeconfig(t, LocalContext, srv.URL, serverCA(srv)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(KubeconfigPath(dir), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Trust(dir); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LESSONS_KUBECONFIG", KubeconfigPath(dir))
	if _, err := LoadConfig(); err != nil {
		t.Fatalf("the cluster Trust recorded should be accepted: %v", err)
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
	trusting(t, url, serverCA(srv))
	t.Setenv("LESSONS_KUBECONFIG", writeKubeconfig(t, LocalContext, url, serverCA(srv)))
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
