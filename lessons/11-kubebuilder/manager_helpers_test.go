//go:build workshop

package lesson11

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"workshop.local/lessons/internal/harness"
)

// running is one manager process a spec started: the binary built from ./cmd, watching the
// spec's namespace, talking to the API server through a proxy of the spec that notes every
// request it sends and every refusal it gets back.
type running struct {
	ns       string
	user     string // the user it acts as ("" for the workshop's admin)
	requests *requestLog
	log      *syncBuffer
	exited   chan struct{} // closed when the process has ended
	err      error         // how it ended, once exited is closed
}

// startManager runs the manager built from ./cmd, with the flags and environment the scaffold's
// cmd/main.go reads: WATCH_NAMESPACE=ns (--namespaced: its cache holds only ns), a kubeconfig,
// and the metrics and health-probe servers off (--metrics-bind-address=0,
// --health-probe-bind-address=0), so that managers of parallel specs do not compete for ports.
// With user set, its kubeconfig impersonates that user: every request it sends is authorized
// as that user, not as the workshop's admin. It is stopped (SIGTERM, as kubectl delete pod
// would) when the spec ends, before its namespace goes; if the spec failed, its log is printed.
func startManager(ctx SpecContext, ns, user string) *running {
	GinkgoHelper()
	requireManager()
	m := &running{ns: ns, user: user, requests: &requestLog{}, log: &syncBuffer{}, exited: make(chan struct{})}
	kubeconfig := proxiedKubeconfig(ns, user, m.requests)

	cmd := exec.Command(setup.Manager, "--health-probe-bind-address=0", "--metrics-bind-address=0")
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "KUBECONFIG=") || strings.HasPrefix(kv, "WATCH_NAMESPACE=")
	}), "KUBECONFIG="+kubeconfig, "WATCH_NAMESPACE="+ns)
	cmd.Stdout, cmd.Stderr = m.log, m.log
	Expect(cmd.Start()).To(Succeed(), "could not start the manager binary")
	go func() {
		m.err = cmd.Wait()
		close(m.exited)
	}()
	DeferCleanup(func(SpecContext) {
		m.stop(cmd)
		if CurrentSpecReport().Failed() {
			GinkgoWriter.Printf("\n--- the manager's log (WATCH_NAMESPACE=%s%s) ---\n%s--- end of the manager's log ---\n", ns, m.as(), m.log.String())
		}
	}, NodeTimeout(30*time.Second))
	return m
}

// proxiedKubeconfig starts a proxy for requests that notes them in requests, stopped when the
// spec ends, and writes a kubeconfig that points at it, in the namespace ns, impersonating user
// ("" for none: the workshop's admin). It returns the kubeconfig's path.
func proxiedKubeconfig(ns, user string, requests *requestLog) string {
	GinkgoHelper()
	proxy := requests.proxy()
	DeferCleanup(func() {
		proxy.CloseClientConnections()
		proxy.Close()
	})
	kubeconfig := filepath.Join(GinkgoT().TempDir(), "kubeconfig")
	config := clientcmdapi.NewConfig()
	config.Clusters["workshop"] = &clientcmdapi.Cluster{Server: proxy.URL}
	config.AuthInfos["manager"] = &clientcmdapi.AuthInfo{Impersonate: user}
	config.Contexts["manager"] = &clientcmdapi.Context{Cluster: "workshop", AuthInfo: "manager", Namespace: ns}
	config.CurrentContext = "manager"
	Expect(clientcmd.WriteToFile(*config, kubeconfig)).To(Succeed())
	return kubeconfig
}

// stop ends the manager as a pod's container is ended: SIGTERM (ctrl.SetupSignalHandler
// cancels the manager's context, and the manager stops its controllers), then SIGKILL if it
// is still there 10 s later.
func (m *running) stop(cmd *exec.Cmd) {
	select {
	case <-m.exited:
		return
	default:
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-m.exited
	}
}

func (m *running) as() string {
	if m.user == "" {
		return ""
	}
	return ", acting as " + m.user
}

// diagnosis is the end of a failure message: why the manager may not have done its part (it
// ended, or the API server refused it something), or where to look.
func (m *running) diagnosis() string {
	select {
	case <-m.exited:
		return fmt.Sprintf(" The manager ended (%v); its log is printed below the failure.", m.err)
	default:
	}
	if refused := m.requests.refusals(); len(refused) > 0 {
		return fmt.Sprintf(" The API server refused the manager%s: %s.", m.as(), strings.Join(refused, "; "))
	}
	return " The manager's log is printed below the failure."
}

// notFoundErrors counts the reconciles whose error the manager logged as "not found".
func notFoundErrors(m *running) int {
	n := 0
	for _, line := range strings.Split(m.log.String(), "\n") {
		if strings.Contains(line, "Reconciler error") && strings.Contains(line, "not found") {
			n++
		}
	}
	return n
}

// writes are the writes the manager sent since the log was reset to objects of namespace ns
// whose resource (guestbooks, configmaps, deployments...) is one of resources, each as
// "METHOD path".
func (m *running) writes(resources ...string) []string {
	var found []string
	for _, r := range m.requests.all() {
		if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
			continue
		}
		for _, res := range resources {
			if strings.Contains(r.Path, "/namespaces/"+m.ns+"/"+res+"/") || strings.HasSuffix(r.Path, "/namespaces/"+m.ns+"/"+res) {
				found = append(found, r.Method+" "+r.Path)
				break
			}
		}
	}
	return found
}

// requestLog notes the requests a manager sent through its proxy, and what the API server
// answered.
type requestLog struct {
	mu       sync.Mutex
	requests []request
}

// request is one request the proxy passed on.
type request struct {
	Method, Path, Query string
	Status              int
	Message             string // the API server's message, for a request it refused
}

// proxy starts a proxy in front of the API server for one manager: plain HTTP on 127.0.0.1
// towards the manager, the workshop's admin credentials towards the API server (the manager's
// Impersonate-User header, if any, passes through: the admin may impersonate). Every request is
// noted in the log.
func (l *requestLog) proxy() *httptest.Server {
	GinkgoHelper()
	target, err := url.Parse(cluster.Config.Host)
	Expect(err).NotTo(HaveOccurred())
	transport, err := rest.TransportFor(cluster.Config)
	Expect(err).NotTo(HaveOccurred())
	p := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport: l.noting(transport),
		// A manager that stops cancels its watches: nothing to report.
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) },
	}
	return httptest.NewServer(p)
}

// noting wraps the proxy's transport: each request is noted with the answer's status and, for
// a refusal (4xx or 5xx), the API server's message.
func (l *requestLog) noting(rt http.RoundTripper) http.RoundTripper {
	return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(r)
		noted := request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery}
		if err == nil {
			noted.Status = resp.StatusCode
			if resp.StatusCode >= 400 {
				body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
				_ = resp.Body.Close()
				resp.Body = io.NopCloser(bytes.NewReader(body)) // the manager gets it as it came
				noted.Message = statusMessage(body, resp.Header.Get("Content-Encoding"))
			}
		}
		l.mu.Lock()
		l.requests = append(l.requests, noted)
		l.mu.Unlock()
		return resp, err
	})
}

// statusMessage is the message of the API server's Status in body (JSON or protobuf, gzipped
// or not, as the manager's client asked for it), or the body itself.
func statusMessage(body []byte, encoding string) string {
	if encoding == "gzip" {
		r, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return string(body)
		}
		if body, err = io.ReadAll(r); err != nil {
			return string(body)
		}
	}
	if obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, nil); err == nil {
		if status, ok := obj.(*metav1.Status); ok {
			return status.Message
		}
	}
	return string(body)
}

// all returns the requests noted so far.
func (l *requestLog) all() []request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.requests)
}

// reset forgets the requests noted so far.
func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests = nil
}

// refusals are the API server's messages for the requests it refused as Forbidden (403), each
// once, in the order they came.
func (l *requestLog) refusals() []string {
	var messages []string
	for _, r := range l.all() {
		if r.Status == http.StatusForbidden && !slices.Contains(messages, r.Message) {
			messages = append(messages, r.Message)
		}
	}
	return messages
}

// syncBuffer is a bytes.Buffer that the manager's stdout and stderr may write to at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
