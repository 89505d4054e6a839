package lock

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onsi/gomega"
)

// A second taker waits, says so, and gets the lock once the first lets go.
func TestASecondTakerWaitsForTheFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := File(context.Background(), path, &bytes.Buffer{}, "waiting")
	if err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	got := make(chan error, 1)
	go func() {
		u, err := File(context.Background(), path, &out, "another one holds it; waiting for it")
		if err == nil {
			u()
		}
		got <- err
	}()
	// Released only once the second one says it waits: the wait is what this test is about.
	gomega.NewWithT(t).Eventually(out.String).WithTimeout(10 * time.Second).Should(gomega.ContainSubstring("another one holds it; waiting for it"))
	unlock()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "another one holds it; waiting for it") {
		t.Errorf("the wait was not announced: %q", out.String())
	}
}

// A long wait shows the time waited and what the holder is doing.
func TestStillWaitingSaysWhatTheHolderDoes(t *testing.T) {
	line := stillWaiting(95*time.Second+400*time.Millisecond, func() string { return "building kube-apiserver ... 312 of 1204 packages compiled, 1m20s" })
	want := "  still waiting (1m35s); the other one: building kube-apiserver ... 312 of 1204 packages compiled, 1m20s"
	if line != want {
		t.Errorf("got %q, want %q", line, want)
	}
	if line := stillWaiting(time.Minute, func() string { return "" }); line != "  still waiting (1m0s)" {
		t.Errorf("without a status from the holder, got %q", line)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
