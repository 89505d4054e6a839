package proof

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The interrupt proof looks at processes and sockets through Linux's /proc: which processes a
// run started (the tree under it, whatever groups they moved to), which ports they listen on,
// and whether any of them is still alive afterwards.

const canInspectProcesses = true

// procInfo is one process: its parent and whether it is a zombie (dead, not yet reaped: an
// orphan's parent, the init process of some containers, never reaps it).
type procInfo struct {
	pid, ppid int
	zombie    bool
}

func allProcesses() (map[int]procInfo, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	procs := map[int]procInfo{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // ended meanwhile
		}
		// "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
		rest := string(data[strings.LastIndexByte(string(data), ')')+1:])
		fields := strings.Fields(rest)
		if len(fields) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		procs[pid] = procInfo{pid: pid, ppid: ppid, zombie: fields[0] == "Z"}
	}
	return procs, nil
}

// processTree is root and every process under it.
func processTree(root int) ([]int, error) {
	procs, err := allProcesses()
	if err != nil {
		return nil, err
	}
	children := map[int][]int{}
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p.pid)
	}
	tree := []int{root}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, children[tree[i]]...)
	}
	return tree, nil
}

// stillRunning is those of pids that are alive and not zombies.
func stillRunning(pids []int) []int {
	procs, err := allProcesses()
	if err != nil {
		return nil
	}
	var alive []int
	for _, pid := range pids {
		if p, ok := procs[pid]; ok && !p.zombie {
			alive = append(alive, pid)
		}
	}
	return alive
}

// commandLine is a process's command line, for a message.
func commandLine(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " "))
}

// listeningPorts maps each TCP port some process of pids listens on to that process.
func listeningPorts(pids []int) map[int]int {
	byInode := listeningSockets()
	ports := map[int]int{}
	for _, pid := range pids {
		fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
			if err != nil || !strings.HasPrefix(link, "socket:[") {
				continue
			}
			if port, ok := byInode[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")]; ok {
				ports[port] = pid
			}
		}
	}
	return ports
}

// listening says which of ports some process of this machine listens on.
func listening(ports map[int]int) []int {
	now := map[int]bool{}
	for _, port := range listeningSockets() {
		now[port] = true
	}
	var still []int
	for port := range ports {
		if now[port] {
			still = append(still, port)
		}
	}
	return still
}

// listeningSockets maps the inode of every listening TCP socket (IPv4 and IPv6) to its port.
func listeningSockets() map[string]int {
	sockets := map[string]int{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		scanner := bufio.NewScanner(f)
		scanner.Scan() // the header
		for scanner.Scan() {
			// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
			fields := strings.Fields(scanner.Text())
			if len(fields) < 10 || fields[3] != "0A" { // 0A: LISTEN
				continue
			}
			_, hexPort, _ := strings.Cut(fields[1], ":")
			port, err := strconv.ParseInt(hexPort, 16, 32)
			if err == nil {
				sockets[fields[9]] = int(port)
			}
		}
		f.Close()
	}
	return sockets
}
