package observe_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
)

// stderr keeps the lines this test process writes to its standard error, so that a spec can
// tell whether a Reconcile wrote a line there: klog's global logger writes to os.Stderr (as
// does anything that prints there), and in a pod those lines land in the same log as the
// controller's own. Every line is still written to the real standard error.
//
// os.Stderr is replaced once, while the package initializes, before any spec or worker runs.
var stderr = teeStderr()

// stderrTee is the reading end of the pipe that os.Stderr now writes to.
type stderrTee struct {
	active bool // os.Stderr writes to the tee
	marks  atomic.Int64
	mu     sync.Mutex
	lines  []string                 // lines that name a spec namespace (prefix), the most recent last
	synced map[string]chan struct{} // Sync marks not read yet
}

// keptLines bounds what the tee keeps.
const keptLines = 10000

// syncMark starts the lines Sync writes: they are kept from the real standard error.
const syncMark = "\x00lesson13-stderr-sync "

func teeStderr() *stderrTee {
	t := &stderrTee{synced: map[string]chan struct{}{}}
	r, w, err := os.Pipe()
	if err != nil {
		return t // no tee: Lines finds nothing, Sync returns at once
	}
	real := os.Stderr
	os.Stderr = w
	t.active = true
	go func() {
		in := bufio.NewReader(r)
		for {
			line, err := in.ReadString('\n')
			if line != "" {
				t.add(line, real)
			}
			if err != nil {
				return
			}
		}
	}()
	return t
}

// add forwards one line to the real standard error and keeps it if it names a spec namespace;
// a Sync mark it only notes.
func (t *stderrTee) add(line string, real *os.File) {
	if mark, ok := strings.CutPrefix(line, syncMark); ok {
		t.mu.Lock()
		if c, ok := t.synced[strings.TrimSpace(mark)]; ok {
			close(c)
			delete(t.synced, strings.TrimSpace(mark))
		}
		t.mu.Unlock()
		return
	}
	_, _ = real.WriteString(line)
	if !strings.Contains(line, prefix) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, strings.TrimRight(line, "\n"))
	if len(t.lines) > keptLines {
		t.lines = t.lines[len(t.lines)-keptLines:]
	}
}

// Sync returns once every line written to os.Stderr before it has been read (or done closes).
func (t *stderrTee) Sync(done <-chan struct{}) {
	if !t.active {
		return
	}
	id := fmt.Sprint(t.marks.Add(1))
	c := make(chan struct{})
	t.mu.Lock()
	t.synced[id] = c
	t.mu.Unlock()
	if _, err := fmt.Fprintf(os.Stderr, "%s%s\n", syncMark, id); err != nil {
		return
	}
	select {
	case <-c:
	case <-done:
	}
}

// Lines returns the kept lines that contain every one of parts.
func (t *stderrTee) Lines(parts ...string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var found []string
	for _, line := range t.lines {
		match := true
		for _, p := range parts {
			match = match && strings.Contains(line, p)
		}
		if match {
			found = append(found, line)
		}
	}
	return found
}
