package harness

import (
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

// RequestLog records the URL of every request sent through the configs it watches, so specs
// can check what the learner's code sent (and how often), not only what came back.
type RequestLog struct {
	mu   sync.Mutex
	urls []*url.URL
}

// Watching returns a copy of cfg whose requests are recorded in the log. Every kind of client
// built from the copy (typed, dynamic, discovery, REST) ends in the transport Wrap wraps.
func (l *RequestLog) Watching(cfg *rest.Config) *rest.Config {
	watched := rest.CopyConfig(cfg)
	watched.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return RoundTripFunc(func(r *http.Request) (*http.Response, error) {
			l.mu.Lock()
			l.urls = append(l.urls, r.URL)
			l.mu.Unlock()
			return rt.RoundTrip(r)
		})
	})
	return watched
}

// Sent returns the URLs requested so far.
func (l *RequestLog) Sent() []*url.URL {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*url.URL(nil), l.urls...)
}

// Reset forgets the requests recorded so far.
func (l *RequestLog) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.urls = nil
}
