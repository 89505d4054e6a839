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
	return FileShowing(ctx, path, out, waitMessage, nil)
}

// stillWaitingEvery is how often a wait for a lock says that it is still waiting.
const stillWaitingEvery = 15 * time.Second

// FileShowing is File for a lock held through long work (a build of minutes): while it waits, it
// says every 15 seconds how long it has waited and, when holderStatus gives one, what the holder
// is doing, so the wait never looks hung.
func FileShowing(ctx context.Context, path string, out io.Writer, waitMessage string, holderStatus func() string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", path, err)
	}
	var began, lastSaid time.Time
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); _ = f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		now := time.Now()
		switch {
		case began.IsZero():
			fmt.Fprintln(out, waitMessage)
			began, lastSaid = now, now
		case now.Sub(lastSaid) >= stillWaitingEvery:
			fmt.Fprintln(out, stillWaiting(now.Sub(began), holderStatus))
			lastSaid = now
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("gave up waiting for the lock %s: %w", path, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// stillWaiting is the line a long wait prints: the time waited, and the holder's status if any.
func stillWaiting(waited time.Duration, holderStatus func() string) string {
	line := fmt.Sprintf("  still waiting (%s)", waited.Round(time.Second))
	if holderStatus != nil {
		if s := holderStatus(); s != "" {
			line += "; the other one: " + s
		}
	}
	return line
}
