// Package atomicfile writes small state files that another process may read at the same moment:
// through a temporary file and a rename, so a reader sees the old content or the new, never an
// empty or half-written file (os.WriteFile truncates first).
package atomicfile

import (
	"fmt"
	"os"
)

// Write replaces path with data. The temporary file is named by this process's pid, so two
// processes writing the same path at once never write into each other's.
func Write(path string, data []byte, perm os.FileMode) error {
	tmp := fmt.Sprintf("%s.%d.partial", path, os.Getpid())
	err := os.WriteFile(tmp, data, perm)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}
