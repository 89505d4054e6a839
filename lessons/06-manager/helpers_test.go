package managers_test

import (
	"context"
	"io"
	"net/http"
	"path"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"workshop.local/lessons/internal/harness"
)

// Helpers shared by the specs of several exercises.

// createConfigMap creates a ConfigMap through the API (not through your manager) and returns
// what the server stored.
func createConfigMap(ctx context.Context, namespace, name, value string, labels map[string]string) *corev1.ConfigMap {
	GinkgoHelper()
	created, err := cluster.Clientset.CoreV1().ConfigMaps(namespace).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: labels},
		Data:       map[string]string{"value": value},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not create the ConfigMap %s/%s", namespace, name)
	return created
}

// keys returns "namespace/name" for each object of a list, for readable comparisons.
func keys[T any, PT interface {
	*T
	client.Object
}](items []T) []string {
	out := make([]string, 0, len(items))
	for i := range items {
		obj := PT(&items[i])
		out = append(out, obj.GetNamespace()+"/"+obj.GetName())
	}
	return out
}

// Gate holds back what the API server sends to one manager, so a spec can look at the
// manager while its cache cannot have caught up. While the gate is closed:
//   - data arriving on a watch that is already open waits (the cache sees no change), and
//   - new list and watch requests for the resources it guards wait before they are sent (the
//     cache cannot sync).
//
// Everything else (gets, creates) passes. A request's own context cancels its wait, so a
// stopping manager is never stuck behind the gate.
type Gate struct {
	mu     sync.Mutex
	opened chan struct{} // closed while the gate is open
}

// newGate returns an open gate that is opened again when the spec ends.
func newGate() *Gate {
	g := &Gate{opened: make(chan struct{})}
	close(g.opened)
	DeferCleanup(g.Open)
	return g
}

// Close holds back watch data and new lists and watches until Open.
func (g *Gate) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.opened:
		g.opened = make(chan struct{})
	default: // already closed
	}
}

// Open lets everything through again.
func (g *Gate) Open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.opened:
	default:
		close(g.opened)
	}
}

// wait blocks while the gate is closed, until ctx ends or abort is closed (a nil abort never is).
func (g *Gate) wait(ctx context.Context, abort <-chan struct{}) error {
	g.mu.Lock()
	opened := g.opened
	g.mu.Unlock()
	select {
	case <-opened:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-abort:
		return io.ErrClosedPipe
	}
}

// Guarding returns a copy of cfg whose lists and watches of resource ("configmaps") pass
// through the gate.
func (g *Gate) Guarding(cfg *rest.Config, resource string) *rest.Config {
	guarded := rest.CopyConfig(cfg)
	guarded.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
			if !isListOrWatch(r, resource) {
				return rt.RoundTrip(r)
			}
			if err := g.wait(r.Context(), nil); err != nil {
				return nil, err
			}
			resp, err := rt.RoundTrip(r)
			if err == nil && r.URL.Query().Get("watch") == "true" {
				resp.Body = &gatedBody{ReadCloser: resp.Body, gate: g, ctx: r.Context(), closed: make(chan struct{})}
			}
			return resp, err
		})
	})
	return guarded
}

// isListOrWatch says whether r lists or watches resource: a GET of its collection's path
// (a watch is a GET of that path with ?watch=true).
func isListOrWatch(r *http.Request, resource string) bool {
	return r.Method == http.MethodGet && path.Base(r.URL.Path) == resource
}

// gatedBody hands on what a watch received only while the gate is open. Closing it (a
// stopping informer does) ends a Read that waits at the gate.
type gatedBody struct {
	io.ReadCloser
	gate      *Gate
	ctx       context.Context
	closed    chan struct{}
	closeOnce sync.Once
}

func (b *gatedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if waitErr := b.gate.wait(b.ctx, b.closed); waitErr != nil {
		return 0, waitErr
	}
	return n, err
}

func (b *gatedBody) Close() error {
	b.closeOnce.Do(func() { close(b.closed) })
	return b.ReadCloser.Close()
}

// consistentlyBriefly is how long a spec watches for something that must not happen yet.
const consistentlyBriefly = 500 * time.Millisecond
