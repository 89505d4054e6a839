package clients_test

import (
	"net/http"
	"net/url"
	"sync"

	"k8s.io/client-go/rest"
)

// requestLog records the URL of every request sent through a rest.Config, so that specs can
// check what your code sent (and how often) rather than only what came back.
type requestLog struct {
	mu   sync.Mutex
	urls []*url.URL
}

// watching returns a copy of cfg whose requests are recorded in the log. rest.Config.Wrap puts
// a round tripper around the transport every client built from the copy uses, whichever kind
// of client it is: they all end in the same net/http transport.
func (l *requestLog) watching(cfg *rest.Config) *rest.Config {
	watched := rest.CopyConfig(cfg)
	watched.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			l.mu.Lock()
			l.urls = append(l.urls, r.URL)
			l.mu.Unlock()
			return rt.RoundTrip(r)
		})
	})
	return watched
}

// sent returns the URLs requested so far.
func (l *requestLog) sent() []*url.URL {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*url.URL(nil), l.urls...)
}

// reset forgets the requests recorded so far.
func (l *requestLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.urls = nil
}

// roundTripFunc lets a function stand in for an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
