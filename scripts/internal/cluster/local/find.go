package local

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A pid file can be lost or garbled (a crash while writing it, an editor, a mischievous
// classmate). The components are then found by what they are: a process of this cluster's binary,
// running this component's command, whose command line names this cluster's folder, which every
// component's flags do (its data, certificates or kubeconfig live there). No other cluster on the
// machine (another clone, the tool's own tests) has this folder in its command line.

// running lists the pids of every process that runs comp of this cluster, with or without a pid
// file: the one the pid file names and any it lost track of.
func (c *Cluster) running(comp component) []int {
	bin := resolve(comp.bin)
	var pids []int
	for pid, args := range commandLines() {
		if len(args) > len(comp.command) && resolve(args[0]) == bin && c.namesFolder(args) &&
			slices.Equal(args[1:1+len(comp.command)], comp.command) && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// namesFolder says whether a command line mentions this cluster's folder.
func (c *Cluster) namesFolder(args []string) bool {
	dir := filepath.Clean(c.Dir) + string(filepath.Separator)
	for _, a := range args {
		if strings.Contains(a, dir) {
			return true
		}
	}
	return false
}

// commandLines maps every process of this user to its command line: /proc where there is one,
// ps elsewhere (macOS), whose lines cannot tell arguments with spaces apart (the workspace's own
// paths may have spaces; a match then needs the pid file).
func commandLines() map[int][]string {
	lines := map[int][]string{}
	entries, err := os.ReadDir("/proc")
	if err == nil {
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err != nil || len(data) == 0 {
				continue
			}
			lines[pid] = strings.Split(string(bytes.TrimRight(data, "\x00")), "\x00")
		}
		return lines
	}
	out, err := exec.Command("ps", "-axww", "-o", "pid=,command=").Output()
	if err != nil {
		return lines
	}
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		if pid, err := strconv.Atoi(fields[0]); err == nil {
			lines[pid] = fields[1:]
		}
	}
	return lines
}

// stopStrays stops what still runs comp after its pid file's process is gone: processes a lost
// or garbled pid file no longer named.
func (c *Cluster) stopStrays(comp component) error {
	for _, pid := range c.running(comp) {
		if err := stopPid(comp.name, pid, 10*time.Second); err != nil {
			return err
		}
	}
	return nil
}
