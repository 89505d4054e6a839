package queues_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"workshop.local/lessons/internal/harness"
)

// flakyWrites stands between a controller's client and the API server. It answers the first
// failures writes (PUT or PATCH) of a ConfigMap with 409 Conflict, which is what the server
// says to an update based on an old resourceVersion: a transient error that a retry fixes.
type flakyWrites struct {
	mu       sync.Mutex
	failures int // writes still to fail
	seen     int // writes seen, failed or not
}

// wrap is a rest.Config Wrap function: it puts flakyWrites in front of rt.
func (f *flakyWrites) wrap(rt http.RoundTripper) http.RoundTripper {
	return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
		if isConfigMapWrite(r) && f.failThisOne() {
			if r.Body != nil {
				_ = r.Body.Close()
			}
			return conflict(r), nil
		}
		return rt.RoundTrip(r)
	})
}

func (f *flakyWrites) failThisOne() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen++
	if f.failures == 0 {
		return false
	}
	f.failures--
	return true
}

// attempts is how many writes of a ConfigMap the controller sent, failed or not.
func (f *flakyWrites) attempts() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen
}

func isConfigMapWrite(r *http.Request) bool {
	return (r.Method == http.MethodPut || r.Method == http.MethodPatch) && strings.Contains(r.URL.Path, "/configmaps/")
}

// conflict is the response the API server gives to an update that lost a race.
func conflict(r *http.Request) *http.Response {
	status := apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, path.Base(r.URL.Path),
		errors.New("injected by the spec: a transient error, try again")).ErrStatus
	status.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}
	body, _ := json.Marshal(status) // a Status always marshals
	return &http.Response{
		Status: "409 Conflict", StatusCode: http.StatusConflict,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": []string{"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       r,
	}
}
