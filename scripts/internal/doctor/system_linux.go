package doctor

import (
	"os"
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

// memAvailable reads MemAvailable from /proc/meminfo: what can be used without swapping.
func memAvailable() (uint64, bool) {
	data, _ := os.ReadFile("/proc/meminfo")
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024, false
		}
	}
	return 0, false
}
