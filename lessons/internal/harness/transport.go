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

// RequestLog records every request sent through the configs it watches (method, URL and
// headers), so specs can check what the learner's code sent, how often, and how it asked (the
// Accept header tells a metadata-only list, as=PartialObjectMetadataList, from a full one), not
// only what came back.
type RequestLog struct {
	mu       sync.Mutex
	requests []SentRequest
}

// SentRequest is one request a RequestLog recorded.
type SentRequest struct {
	Method string
	URL    *url.URL
	Header http.Header
}

// Watching returns a copy of cfg whose requests are recorded in the log. Every kind of client
// built from the copy (typed, dynamic, discovery, REST) ends in the transport Wrap wraps.
func (l *RequestLog) Watching(cfg *rest.Config) *rest.Config {
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

// Sent returns the URLs requested so far, reads and writes alike.
func (l *RequestLog) Sent() []*url.URL {
	l.mu.Lock()
	defer l.mu.Unlock()
	urls := make([]*url.URL, 0, len(l.requests))
	for _, r := range l.requests {
		urls = append(urls, r.URL)
	}
	return urls
}

// Requests returns the requests recorded so far, in the order they were sent.
func (l *RequestLog) Requests() []SentRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]SentRequest(nil), l.requests...)
}

// Writes returns the requests so far that may change something on the server (every method but
// GET, HEAD and OPTIONS), each as "METHOD path", for specs that count what a controller wrote.
func (l *RequestLog) Writes() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var writes []string
	for _, r := range l.requests {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			writes = append(writes, fmt.Sprintf("%s %s", r.Method, r.URL.Path))
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
