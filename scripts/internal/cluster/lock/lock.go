// Package lock holds the workshop cluster's file locks (starting the local cluster, creating the kind
// cluster, building the binary cache). A flock dies with its holder, so a crash leaves none behind.
package lock

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// File takes an exclusive flock on path, waiting (and saying so once) while another process
// holds it. The kernel drops a flock when its holder dies, so a crash never leaves a stale lock.
func File(ctx context.Context, path string, out io.Writer, waitMessage string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", path, err)
	}
	said := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); _ = f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !said {
			fmt.Fprintln(out, waitMessage)
			said = true
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("gave up waiting for the lock %s: %w", path, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}
