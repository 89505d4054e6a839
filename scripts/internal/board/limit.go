package board

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"sync"
	"time"
)

// rate is a token bucket: Burst requests at once, then one more every Every.
type rate struct {
	Burst float64
	Every time.Duration
}

// The per-address rates. A classroom sometimes shares one NAT address, so they are set for a
// whole room behind one address (60 learners joining in the same minute, a check every 3 s
// each), and they bound what a single hostile laptop can make the board do.
var (
	joinRate   = rate{Burst: 60, Every: time.Second}            // joins: a room at once, then 1/s
	reportRate = rate{Burst: 120, Every: 50 * time.Millisecond} // reports: 20/s sustained
	readRate   = rate{Burst: 60, Every: 200 * time.Millisecond} // pages: 5/s, a few projectors
	maxTracked = 4096                                           // addresses remembered at once
)

// limiter keeps one bucket per client address.
type limiter struct {
	rate    rate
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(r rate) *limiter { return &limiter{rate: r, buckets: map[string]*bucket{}} }

// allow takes a token from addr's bucket at time now, or says how long until one is there.
func (l *limiter) allow(addr string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[addr]
	if b == nil {
		if len(l.buckets) >= maxTracked && !l.forgetIdle(now) {
			return false, time.Minute
		}
		b = &bucket{tokens: l.rate.Burst, at: now}
		l.buckets[addr] = b
	}
	b.tokens = math.Min(l.rate.Burst, b.tokens+float64(now.Sub(b.at))/float64(l.rate.Every))
	b.at = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) * float64(l.rate.Every))
	}
	b.tokens--
	return true, 0
}

// forgetIdle drops the buckets that have refilled (their addresses are as new); false when
// none has: then the board is under more addresses than it tracks, and new ones wait.
func (l *limiter) forgetIdle(now time.Time) bool {
	full := time.Duration(l.rate.Burst * float64(l.rate.Every))
	for addr, b := range l.buckets {
		if now.Sub(b.at) >= full {
			delete(l.buckets, addr)
		}
	}
	return len(l.buckets) < maxTracked
}

// clientKey is the address a request counts against: its IP, or for IPv6 its /64, which one
// laptop can fill with addresses of its own.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil || ip.To4() != nil {
		return host
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// limit answers 429 and returns false when the request's address is over the limiter's rate.
func (s *Server) limit(w http.ResponseWriter, r *http.Request, l *limiter, what string) bool {
	ok, wait := l.allow(clientKey(r), s.now())
	if ok {
		return true
	}
	secs := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", fmt.Sprint(secs))
	httpError(w, http.StatusTooManyRequests, fmt.Sprintf("too many %s from your address: try again in %d s", what, secs))
	return false
}
