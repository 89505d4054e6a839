//go:build !linux

package proof

import "errors"

// Without Linux's /proc the interrupt proof cannot see a run's processes and sockets: it says so
// and proves nothing (CI runs on Linux).

const canInspectProcesses = false

func processTree(int) ([]int, error)   { return nil, errors.New("needs /proc") }
func stillRunning([]int) []int         { return nil }
func commandLine(int) string           { return "?" }
func listeningPorts([]int) map[int]int { return nil }
func listening(map[int]int) []int      { return nil }
