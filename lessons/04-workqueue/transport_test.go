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

// apiRecorder stands between a controller's client and the API server. It records every
// request for one ConfigMap (a GET, PUT or PATCH of .../configmaps/<name>, as opposed to the
// informer's list and watch of the collection), and answers its first `failures` writes with
// 409 Conflict, which is what the server says to an update based on an old resourceVersion: a
// transient error that a retry fixes.
type apiRecorder struct {
	mu       sync.Mutex
	failures int            // writes still to fail
	writes   map[string]int // writes per ConfigMap name, failed or not
	gets     []string       // names of the ConfigMaps read one by one
}

// wrap is a rest.Config Wrap function: it puts the recorder in front of rt.
func (a *apiRecorder) wrap(rt http.RoundTripper) http.RoundTripper {
	return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
		name, ok := configMapName(r)
		if ok && a.record(r.Method, name) {
			if r.Body != nil {
				_ = r.Body.Close()
			}
			return conflict(r), nil
		}
		return rt.RoundTrip(r)
	})
}

// record notes a request for the ConfigMap name and says whether to fail it.
func (a *apiRecorder) record(method, name string) (fail bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch method {
	case http.MethodGet:
		a.gets = append(a.gets, name)
		return false
	case http.MethodPut, http.MethodPatch:
		if a.writes == nil {
			a.writes = map[string]int{}
		}
		a.writes[name]++
		if a.failures > 0 {
			a.failures--
			return true
		}
	}
	return false
}

// writesOf is how many writes of the ConfigMap name the controller sent, failed or not.
func (a *apiRecorder) writesOf(name string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.writes[name]
}

// reads are the names of the ConfigMaps the controller read with a GET, one by one, instead
// of from its informer's cache.
func (a *apiRecorder) reads() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.gets...)
}

// configMapName returns the name in a request for one ConfigMap, and false for any other
// request (the informer lists and watches the collection, .../configmaps, with no name).
func configMapName(r *http.Request) (string, bool) {
	parent, name := path.Split(strings.TrimSuffix(r.URL.Path, "/"))
	if path.Base(parent) != "configmaps" || name == "" {
		return "", false
	}
	return name, true
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
