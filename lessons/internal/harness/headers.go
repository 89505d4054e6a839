package harness

import (
	"net/http"
	"net/url"
	"sync"

	"k8s.io/client-go/rest"
)

// SentRequest is one request a HeaderLog recorded: its method, URL and headers.
type SentRequest struct {
	Method string
	URL    *url.URL
	Header http.Header
}

// HeaderLog records the method, URL and headers of every request sent through the configs it
// watches. RequestLog keeps the method and URL only; a HeaderLog is for specs that must see
// how a client asked, not only what: which representation a request accepts (the Accept
// header), say, tells a metadata-only list (as=PartialObjectMetadataList) from a full one.
type HeaderLog struct {
	mu       sync.Mutex
	requests []SentRequest
}

// Watching returns a copy of cfg whose requests are recorded in the log, headers included.
// Every kind of client built from the copy ends in the transport Wrap wraps.
func (l *HeaderLog) Watching(cfg *rest.Config) *rest.Config {
	watched := rest.CopyConfig(cfg)
	watched.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return RoundTripFunc(func(r *http.Request) (*http.Response, error) {
			sent := SentRequest{Method: r.Method, URL: r.URL, Header: r.Header.Clone()}
			l.mu.Lock()
			l.requests = append(l.requests, sent)
			l.mu.Unlock()
			return rt.RoundTrip(r)
		})
	})
	return watched
}

// Requests returns the requests recorded so far, in the order they were sent.
func (l *HeaderLog) Requests() []SentRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]SentRequest(nil), l.requests...)
}

// Reset forgets the requests recorded so far.
func (l *HeaderLog) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests = nil
}
