//go:build unix

package leftovers

import (
	"errors"
	"os"
	"syscall"
)

// heldLocks keeps the lock files open: closing one would drop its lock.
var heldLocks []*os.File

// holdLock creates path and takes an exclusive flock on it for the rest of the process's life.
// The file is locked under a temporary name and then renamed into place, so no sweep ever sees
// it unlocked while its owner lives.
func holdLock(path string) error {
	tmp := path + ".new"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = f.Close()
		return err
	}
	heldLocks = append(heldLocks, f)
	return nil
}

// lockHeld says whether a live process holds the lock on path. No file means no owner: the
// owner creates it before it labels anything, and only a sweep removes it.
func lockHeld(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		return true // cannot tell: keep its objects
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	// We got it, so nobody holds it; closing the file releases it again.
	return false
}
