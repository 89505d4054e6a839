package local

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
)

// Ports are the loopback ports one local cluster listens on. They are chosen free on the first
// start and kept in .cluster/local/ports.json, so the kubeconfig stays valid across restarts.
type Ports struct {
	EtcdClient    int `json:"etcdClient"`
	EtcdPeer      int `json:"etcdPeer"`
	APIServer     int `json:"apiServer"`
	ControllerMgr int `json:"controllerManager"`
	Scheduler     int `json:"scheduler"`
	Kubelet       int `json:"kubelet"`
}

func (p *Ports) all() []*int {
	return []*int{&p.EtcdClient, &p.EtcdPeer, &p.APIServer, &p.ControllerMgr, &p.Scheduler, &p.Kubelet}
}

// choosePorts loads the saved ports and replaces any that another program now holds, saying so.
// WORKSHOP_API_PORT pins the API server's port; if that one is taken, it is an error, because
// the learner asked for it by name.
func choosePorts(path string, out io.Writer) (Ports, error) {
	var p Ports
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &p)
	}
	if fixed := os.Getenv("WORKSHOP_API_PORT"); fixed != "" {
		port, err := strconv.Atoi(fixed)
		if err != nil || port <= 0 || port > 65535 {
			return p, fmt.Errorf("WORKSHOP_API_PORT=%q is not a port number: set it to a free port such as 6443, or unset it", fixed)
		}
		if !portFree(port) {
			return p, fmt.Errorf("port %d (WORKSHOP_API_PORT) is in use by another program: free it (see `lsof -i :%d`) or unset WORKSHOP_API_PORT to let the workshop pick a free port", port, port)
		}
		p.APIServer = port
	}
	taken := map[int]bool{}
	for _, port := range p.all() {
		if *port != 0 && !taken[*port] && portFree(*port) {
			taken[*port] = true
			continue
		}
		if *port != 0 {
			fmt.Fprintf(out, "port %d is in use by another program; the local cluster moves to a free one\n", *port)
		}
		free, err := freePort(taken)
		if err != nil {
			return p, err
		}
		*port, taken[free] = free, true
	}
	data, _ := json.MarshalIndent(p, "", "  ")
	return p, os.WriteFile(path, data, 0o644)
}

// portFree reports whether 127.0.0.1:port can be bound right now.
func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// freePort asks the kernel for an unused loopback port that is not already planned.
func freePort(planned map[int]bool) (int, error) {
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, fmt.Errorf("no free loopback port: %w", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
		if !planned[port] {
			return port, nil
		}
	}
	return 0, errors.New("no free loopback port after 20 tries")
}
