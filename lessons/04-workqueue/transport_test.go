package queues_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
// transient error that a retry fixes. Two more ways to stand in the way, for the specs of Run:
// refuseLists answers every list and watch of the collection with 403 Forbidden, as a server
// does to a client without the RBAC to list, so the informer's cache never syncs; and hold,
// when set, keeps every write from reaching the server until it is closed (release), each
// write saying so on held as it arrives: a sync caught in the middle of its update.
type apiRecorder struct {
	mu          sync.Mutex
	failures    int            // writes still to fail
	writes      map[string]int // writes per ConfigMap name, failed or not
	gets        []string       // names of the ConfigMaps read one by one
	refuseLists bool           // answer lists and watches of ConfigMaps with 403 Forbidden

	hold        chan struct{} // when set, writes wait until it is closed
	held        chan string   // the name of each write that waits, as it arrives
	releaseOnce sync.Once
}

// holdingWrites returns an apiRecorder that keeps every write waiting until release.
func holdingWrites() *apiRecorder {
	return &apiRecorder{hold: make(chan struct{}), held: make(chan string, 100)}
}

// release lets the writes held by a holdingWrites recorder through. It may be called more
// than once.
func (a *apiRecorder) release() {
	a.releaseOnce.Do(func() {
		if a.hold != nil {
			close(a.hold)
		}
	})
}

// wrap is a rest.Config Wrap function: it puts the recorder in front of rt.
func (a *apiRecorder) wrap(rt http.RoundTripper) http.RoundTripper {
	return harness.RoundTripFunc(func(r *http.Request) (*http.Response, error) {
		if a.refuseLists && r.Method == http.MethodGet && isConfigMapCollection(r) {
			return a.answer(r, forbidden(r)), nil
		}
		name, ok := configMapName(r)
		if ok && a.record(r.Method, name) {
			return a.answer(r, conflict(r)), nil
		}
		if ok && a.hold != nil && (r.Method == http.MethodPut || r.Method == http.MethodPatch) {
			a.held <- name
			<-a.hold
		}
		return rt.RoundTrip(r)
	})
}

// answer closes the request's body and returns the response the recorder made up for it.
func (a *apiRecorder) answer(r *http.Request, response *http.Response) *http.Response {
	if r.Body != nil {
		_ = r.Body.Close()
	}
	return response
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

// isConfigMapCollection says whether r is for the ConfigMaps of a namespace as a whole: the
// informer's list and watch.
func isConfigMapCollection(r *http.Request) bool {
	return path.Base(strings.TrimSuffix(r.URL.Path, "/")) == "configmaps"
}

// conflict is the response the API server gives to an update that lost a race.
func conflict(r *http.Request) *http.Response {
	return statusResponse(r, apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, path.Base(r.URL.Path),
		errors.New("injected by the spec: a transient error, try again")).ErrStatus)
}

// forbidden is the response the API server gives to a client that may not list ConfigMaps.
func forbidden(r *http.Request) *http.Response {
	return statusResponse(r, apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "",
		errors.New("injected by the spec: this client may not list or watch ConfigMaps")).ErrStatus)
}

// statusResponse is the response the API server sends with an error Status.
func statusResponse(r *http.Request, status metav1.Status) *http.Response {
	status.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}
	body, _ := json.Marshal(status) // a Status always marshals
	return &http.Response{
		Status: fmt.Sprintf("%d %s", status.Code, http.StatusText(int(status.Code))), StatusCode: int(status.Code),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": []string{"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       r,
	}
}
