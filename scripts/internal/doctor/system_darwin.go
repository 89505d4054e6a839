package doctor

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

func diskFree(path string) uint64 {
	var st syscall.Statfs_t
	if syscall.Statfs(path, &st) != nil {
		return 0
	}
	return st.Bavail * uint64(st.Bsize)
}

// memAvailable is the machine's total memory on macOS (hw.memsize): free memory there is not
// one number, as the system keeps caches it gives back on demand.
func memAvailable() (uint64, bool) {
	out, err := exec.Command("sysctl", "-n", "hw.memsize").Output()
	if err != nil {
		return 0, true
	}
	n, _ := strconv.ParseUint(strings.TrimSpace(string(out)), 10, 64)
	return n, true
}
