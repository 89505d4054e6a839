package observe_test

import (
	"maps"
	"sync"

	"github.com/go-logr/logr"
)

// record is one line a logger wrote: its V-level (0 for Info, and for Error), whether it is
// an error line, its message, and every key/value on it (the logger's own WithValues and the
// call's).
type record struct {
	Level   int
	IsError bool
	Err     error
	Msg     string
	Values  map[string]any
}

// logBook collects the records of every logger made from its sink. The specs give it to the
// manager as its Logger, so the controller's loggers (and the logger in each Reconcile's
// context) write to it; the global logger (ctrl.Log) does not.
type logBook struct {
	mu      sync.Mutex
	records []record
}

// logger returns a logger that records every line at every V-level.
func (b *logBook) logger() logr.Logger { return logr.New(&recordingSink{book: b}) }

// Records returns a copy of every record so far.
func (b *logBook) Records() []record {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]record(nil), b.records...)
}

// ForCall returns the records of one Reconcile call: those with its reconcileID.
func (b *logBook) ForCall(reconcileID string) []record {
	var found []record
	for _, r := range b.Records() {
		if id, ok := r.Values["reconcileID"]; ok && fmtValue(id) == reconcileID {
			found = append(found, r)
		}
	}
	return found
}

// recordingSink is a logr.LogSink that appends to a logBook.
type recordingSink struct {
	book   *logBook
	values map[string]any
}

func (s *recordingSink) Init(logr.RuntimeInfo)  {}
func (s *recordingSink) Enabled(level int) bool { return true }

func (s *recordingSink) Info(level int, msg string, kv ...any) {
	s.add(record{Level: level, Msg: msg, Values: s.merge(kv)})
}

func (s *recordingSink) Error(err error, msg string, kv ...any) {
	s.add(record{IsError: true, Err: err, Msg: msg, Values: s.merge(kv)})
}

func (s *recordingSink) WithValues(kv ...any) logr.LogSink {
	return &recordingSink{book: s.book, values: s.merge(kv)}
}

func (s *recordingSink) WithName(string) logr.LogSink { return s }

func (s *recordingSink) add(r record) {
	s.book.mu.Lock()
	defer s.book.mu.Unlock()
	s.book.records = append(s.book.records, r)
}

// merge returns the sink's values with kv added (a key given again wins).
func (s *recordingSink) merge(kv []any) map[string]any {
	merged := maps.Clone(s.values)
	if merged == nil {
		merged = map[string]any{}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if k, ok := kv[i].(string); ok {
			merged[k] = kv[i+1]
		}
	}
	return merged
}
