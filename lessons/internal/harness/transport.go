package harness

import (
	"fmt"
	"net/http"
	"net/url"
	"sync"

	"k8s.io/client-go/rest"
)

// RoundTripFunc lets a function stand in for an http.RoundTripper, for specs that watch or
// change what a client sends (rest.Config.Wrap puts one in front of the transport).
type RoundTripFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls f.
func (f RoundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// RequestLog records the method and URL of every request sent through the configs it watches,
// so specs can check what the learner's code sent (and how often), not only what came back.
type RequestLog struct {
	mu       sync.Mutex
	requests []sentRequest
}

type sentRequest struct {
	method string
	url    *url.URL
}

// Watching returns a copy of cfg whose requests are recorded in the log. Every kind of client
// built from the copy (typed, dynamic, discovery, REST) ends in the transport Wrap wraps.
func (l *RequestLog) Watching(cfg *rest.Config) *rest.Config {
	watched := rest.CopyConfig(cfg)
	watched.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return RoundTripFunc(func(r *http.Request) (*http.Response, error) {
			l.mu.Lock()
			l.requests = append(l.requests, sentRequest{r.Method, r.URL})
			l.mu.Unlock()
			return rt.RoundTrip(r)
		})
	})
	return watched
}

// Sent returns the URLs requested so far, reads and writes alike.
func (l *RequestLog) Sent() []*url.URL {
	l.mu.Lock()
	defer l.mu.Unlock()
	urls := make([]*url.URL, 0, len(l.requests))
	for _, r := range l.requests {
		urls = append(urls, r.url)
	}
	return urls
}

// Writes returns the requests so far that may change something on the server (every method but
// GET, HEAD and OPTIONS), each as "METHOD path", for specs that count what a controller wrote.
func (l *RequestLog) Writes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var writes []string
	for _, r := range l.requests {
		switch r.method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			writes = append(writes, fmt.Sprintf("%s %s", r.method, r.url.Path))
		}
	}
	return writes
}

// Reset forgets the requests recorded so far.
func (l *RequestLog) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests = nil
}
