package loop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"workshop.local/scripts/internal/lessons"
)

// One watch per workspace: two watchers would both re-check on every save (twice the builds on
// a laptop's two cores) and both write the learner's progress. A second `make watch` says where
// the first one is and stops; it does not take over, since the first may be in the middle of
// something the learner is reading. The lock is a flock, which the kernel drops however its
// holder ends (kill -9 included), so a watch that is gone never blocks the next one.

// otherWatch is the watch that already holds the lock.
type otherWatch struct {
	pid    string
	lesson string
}

func (o *otherWatch) Error() string {
	return fmt.Sprintf("make watch is already running in another terminal (lesson %s, pid %s): use that one, or end it there with q (or kill %s) and run make watch again.", o.lesson, o.pid, o.pid)
}

// oneWatch takes the workspace's watch lock, or says which watch holds it. The lock file
// says, while held, which lesson is watched and by which process.
func oneWatch(scratch string, lesson lessons.Lesson) (release func(), err error) {
	path := filepath.Join(scratch, "watch.lock")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		data, _ := os.ReadFile(path)
		pid, number, _ := strings.Cut(strings.TrimSpace(string(data)), " ")
		return nil, &otherWatch{pid: pid, lesson: number}
	}
	if err := f.Truncate(0); err == nil {
		_, _ = fmt.Fprintf(f, "%d %s\n", os.Getpid(), lesson.Number)
	}
	return func() { _ = f.Close() }, nil
}
