package subprocess

import "syscall"

// ownGroup puts the program in a process group of its own and asks the kernel to send it
// SIGTERM when the thread that started it dies. Go keeps its threads for the process's life
// (none of the tool's goroutines locks one), so in practice that is when the tool dies.
func ownGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
