package main_test

import (
	"bufio"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// listener is one socket a cluster process listens on, found through /proc.
type listener struct {
	component string
	proto     string // tcp, tcp6, udp, udp6 or unix
	ip        net.IP // tcp and udp
	port      int
	path      string // unix; "@..." for an abstract socket
}

func (l listener) String() string {
	if l.proto == "unix" {
		return fmt.Sprintf("%s unix %s", l.component, l.path)
	}
	return fmt.Sprintf("%s %s %s", l.component, l.proto, net.JoinHostPort(l.ip.String(), strconv.Itoa(l.port)))
}

// clusterListeners finds every listening socket of every process the scratch cluster runs: the
// socket inodes among each process's open files, matched against the kernel's socket tables.
// It does not know which ports to expect, so a listener nobody planned is found too.
func clusterListeners() []listener {
	var found []listener
	for _, comp := range components {
		pid := pidOf(comp)
		Expect(pid).NotTo(BeEmpty(), "%s should be running", comp)
		inodes := socketInodes(pid)
		for _, proto := range []string{"tcp", "tcp6", "udp", "udp6"} {
			found = append(found, inetListeners(comp, pid, proto, inodes)...)
		}
		found = append(found, unixListeners(comp, pid, inodes)...)
	}
	return found
}

// socketInodes reads /proc/<pid>/fd, where each socket shows as a link to "socket:[inode]".
func socketInodes(pid string) map[string]bool {
	fds, err := os.ReadDir(filepath.Join("/proc", pid, "fd"))
	Expect(err).NotTo(HaveOccurred())
	inodes := map[string]bool{}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc", pid, "fd", fd.Name()))
		if inode, ok := strings.CutPrefix(target, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(inode, "]")] = true
		}
	}
	return inodes
}

// inetListeners reads /proc/<pid>/net/{tcp,tcp6,udp,udp6}: TCP sockets in state LISTEN (0A),
// and every UDP socket (UDP has no listen state; a bound socket receives from anyone).
func inetListeners(comp, pid, proto string, inodes map[string]bool) []listener {
	var found []listener
	for _, f := range procTable(pid, proto) {
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
		if len(f) < 10 || !inodes[f[9]] || (strings.HasPrefix(proto, "tcp") && f[3] != "0A") {
			continue
		}
		ip, port := parseProcAddr(f[1])
		found = append(found, listener{component: comp, proto: proto, ip: ip, port: port})
	}
	return found
}

// unixListeners reads /proc/<pid>/net/unix: listening sockets carry the __SO_ACCEPTCON flag.
func unixListeners(comp, pid string, inodes map[string]bool) []listener {
	var found []listener
	for _, f := range procTable(pid, "unix") {
		// Num RefCount Protocol Flags Type St Inode [Path]
		if len(f) < 7 || !inodes[f[6]] {
			continue
		}
		flags, _ := strconv.ParseUint(f[3], 16, 32)
		if flags&0x10000 == 0 {
			continue
		}
		path := "(unnamed)"
		if len(f) > 7 {
			path = f[7]
		}
		found = append(found, listener{component: comp, proto: "unix", path: path})
	}
	return found
}

// procTable returns the rows of /proc/<pid>/net/<name> (the process's network namespace), split
// into fields, without the header.
func procTable(pid, name string) [][]string {
	f, err := os.Open(filepath.Join("/proc", pid, "net", name))
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rows = append(rows, strings.Fields(sc.Text()))
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return rows[1:]
}

// parseProcAddr decodes "0100007F:1A0B": the address is hex in 32-bit words of host byte order
// (little-endian on the machines we run on), the port plain hex.
func parseProcAddr(s string) (net.IP, int) {
	hexIP, hexPort, _ := strings.Cut(s, ":")
	raw, err := hex.DecodeString(hexIP)
	Expect(err).NotTo(HaveOccurred())
	for i := 0; i+4 <= len(raw); i += 4 {
		raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
	}
	port, err := strconv.ParseInt(hexPort, 16, 32)
	Expect(err).NotTo(HaveOccurred())
	return net.IP(raw), int(port)
}

// expectPrivate fails unless a unix socket sits below a folder that only this user can open:
// connecting to a unix socket needs search permission on every folder above it, so one folder
// of mode 0700 on the way closes it to other users. An abstract socket (@name) has no folder,
// so any process could connect: that fails too.
func expectPrivate(l listener) {
	GinkgoHelper()
	Expect(l.path).To(HavePrefix("/"), "%s: a socket without a path can be reached by any local process", l)
	for dir := filepath.Dir(l.path); dir != "/"; dir = filepath.Dir(dir) {
		info, err := os.Stat(dir)
		Expect(err).NotTo(HaveOccurred())
		if info.Mode().Perm()&0o077 == 0 && info.Sys().(*syscall.Stat_t).Uid == uint32(os.Getuid()) {
			return
		}
	}
	Fail(fmt.Sprintf("%s: no folder above it is closed to other users (mode 0700)", l))
}

// anonymousPaths are what the controller-manager and the scheduler let through without
// credentials, and only they. Their delegated authentication cannot be told to refuse anonymous
// requests; the health paths are always allowed, and RBAC's bootstrap role
// system:public-info-viewer lets everyone (system:unauthenticated included) GET /healthz, /livez,
// /readyz and /version. Each answers "ok" where the program serves it and 404 where it does not.
var anonymousPaths = map[string]bool{"/healthz": true, "/livez": true, "/readyz": true, "/version": true}

var healthy, notServed = answer{http.StatusOK, "ok"}, answer{http.StatusNotFound, "404 page not found"}

type answer struct {
	code int
	body string
}

var anonymousAnswerers = map[string]bool{"kube-controller-manager": true, "kube-scheduler": true}

// probePaths are what an intruder would ask: API objects, the kubelet's Pods and host logs,
// configuration, metrics, profiles.
var probePaths = []string{"/", "/api/v1/secrets", "/pods", "/runningpods/", "/logs/", "/configz", "/metrics",
	"/stats/summary", "/debug/pprof/", "/containerLogs/kube-system/x/x", "/exec/kube-system/x/x?command=ls",
	"/v3/kv/range", "/health", "/healthz", "/livez", "/readyz", "/version"}

// anonymousClient presents no client certificate. It skips verifying the server's certificate
// on purpose: the question is whether the server answers a stranger, not who the server is.
var anonymousClient = &http.Client{
	Timeout: 5 * time.Second,
	Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // see above
		DisableKeepAlives: true,
	},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// expectRefusesStrangers sends requests without credentials to a loopback TCP listener, over
// plain HTTP and over TLS, and wants each refused: no TLS session, 401 or 403, or a bare 404
// where nothing is served (the kubelet routes a request before it authenticates it, so a path
// it does not serve is "404 page not found" for everyone). Only the components in
// anonymousAnswerers answer the anonymousPaths, with "ok" or 404.
func expectRefusesStrangers(l listener) {
	GinkgoHelper()
	Expect(l.ip.IsLoopback()).To(BeTrue(), "never send requests off this machine") // checked before, kept here as a guard
	host := net.JoinHostPort(l.ip.String(), strconv.Itoa(l.port))
	for _, path := range probePaths {
		code, body, err := get("http://" + host + path)
		if err == nil {
			Expect(code).NotTo(BeNumerically("<", 400), "%s answered plain HTTP %s with %d: %q", l, path, code, body)
		}
		code, body, err = get("https://" + host + path)
		switch {
		case err != nil: // refused during the TLS handshake (no client certificate)
		case anonymousAnswerers[l.component] && anonymousPaths[path]:
			AddReportEntry("anonymous answer", fmt.Sprintf("%s %s: %d %q", l, path, code, body))
			Expect(answer{code, body}).To(BeElementOf(healthy, notServed), "%s %s", l, path)
		case code == http.StatusNotFound:
			Expect(answer{code, body}).To(Equal(notServed), "%s %s", l, path)
		default:
			Expect(code).To(BeElementOf(http.StatusUnauthorized, http.StatusForbidden),
				"%s answered an anonymous %s with %d: %q", l, path, code, body)
		}
	}
}

func get(url string) (int, string, error) {
	resp, err := anonymousClient.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
	return resp.StatusCode, strings.TrimSpace(string(body)), nil
}

// itExposesNothingToTheNetwork is the proof that the cluster is closed to the room: no socket on
// another interface, no unix socket others can open, and no answer to a request without
// credentials.
func itExposesNothingToTheNetwork() {
	It("listens on loopback or private sockets only, and refuses every request without credentials", func() {
		found := clusterListeners()
		var tcp, unix int
		for _, l := range found {
			AddReportEntry("listener", l.String())
			switch l.proto {
			case "unix":
				unix++
				expectPrivate(l)
			default:
				Expect(l.ip.IsLoopback()).To(BeTrue(), "%s: bound beyond loopback, reachable from the network", l)
				if strings.HasPrefix(l.proto, "tcp") {
					tcp++
					expectRefusesStrangers(l)
				}
			}
		}
		// Every component serves something over TCP (the API server, etcd's two ports, the health
		// ports, the kubelet), so finding fewer means the enumeration is broken, not that the
		// cluster is safe.
		Expect(tcp).To(BeNumerically(">=", len(components)+1), "found: %v", found)
		Expect(unix).To(BeNumerically(">=", 1), "the hollow node's runtime socket should be found: %v", found)
	})
}
