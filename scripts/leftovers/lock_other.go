//go:build !unix

package leftovers

import "os"

// Without flock (Windows), a lock file's existence stands for its owner: objects of a run that
// was killed stay until the file is removed by hand (the sweep reports nothing for them).
func holdLock(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

func lockHeld(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
