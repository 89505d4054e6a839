//go:build !linux && !darwin

package doctor

// On other systems (native Windows, which the platform check turns away) the numbers are unknown.
func diskFree(string) uint64 { return 0 }

func memAvailable() (uint64, bool) { return 0, false }
