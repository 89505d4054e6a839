//go:build !linux

package subprocess

import "syscall"

// ownGroup puts the program in a process group of its own. Without Linux's parent-death
// signal, a program whose tool was killed with SIGKILL runs on until it ends by itself; what its
// specs created is swept by the next check (scripts/leftovers).
func ownGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
