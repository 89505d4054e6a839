package classroom

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"workshop.local/scripts/internal/board"
)

// fakeLaptop is an instructor's laptop: loopback, a LAN on eth0 (with IPv6, link-local and
// global), Wi-Fi switched off, and Docker's bridge.
func fakeLaptop() (func() ([]net.Interface, error), func(*net.Interface) ([]net.Addr, error)) {
	ifaces := []net.Interface{
		{Index: 1, Name: "lo", Flags: net.FlagUp | net.FlagLoopback},
		{Index: 2, Name: "eth0", Flags: net.FlagUp},
		{Index: 3, Name: "wlan0"},
		{Index: 4, Name: "docker0", Flags: net.FlagUp},
	}
	cidr := func(s string) net.Addr { ip, n, _ := net.ParseCIDR(s); n.IP = ip; return n }
	addrs := map[string][]net.Addr{
		"lo":      {cidr("127.0.0.1/8"), cidr("::1/128")},
		"eth0":    {cidr("192.168.1.20/24"), cidr("fe80::1/64"), cidr("2001:db8::20/64"), cidr("169.254.3.4/16")},
		"wlan0":   {cidr("10.9.9.9/24")},
		"docker0": {cidr("172.17.0.1/16")},
	}
	return func() ([]net.Interface, error) { return ifaces, nil },
		func(i *net.Interface) ([]net.Addr, error) { return addrs[i.Name], nil }
}

func TestBoardURLsAreTheLaptopsLANAddresses(t *testing.T) {
	ifaces, addrs := fakeLaptop()
	tcp := func(s string) net.Addr { a, _ := net.ResolveTCPAddr("tcp", s); return a }
	for _, tc := range []struct {
		listen string
		want   []string
		room   bool
	}{
		{"0.0.0.0:8765", []string{"http://192.168.1.20:8765", "http://172.17.0.1:8765"}, true},
		{"[::]:8765", []string{"http://192.168.1.20:8765", "http://[2001:db8::20]:8765", "http://172.17.0.1:8765"}, true},
		{"127.0.0.1:8765", []string{"http://127.0.0.1:8765"}, false},
		{"192.168.1.20:8765", []string{"http://192.168.1.20:8765"}, true},
	} {
		urls, room := boardURLs(tcp(tc.listen), ifaces, addrs)
		if !slices.Equal(urls, tc.want) || room != tc.room {
			t.Errorf("listening on %s: %v (room %v), want %v (room %v)", tc.listen, urls, room, tc.want, tc.room)
		}
	}
	urls, room := boardURLs(tcp("[::]:8765"), ifaces, addrs)
	var out bytes.Buffer
	printBanner(&out, urls, room, "ABCD2345", "board.db", 60)
	banner := out.String()
	for _, want := range []string{"The board: http://192.168.1.20:8765", "or: http://[2001:db8::20]:8765",
		"make join BOARD=http://192.168.1.20:8765 CODE=ABCD2345", "make board-remove NAME="} {
		if !strings.Contains(banner, want) {
			t.Errorf("the banner lacks %q:\n%s", want, banner)
		}
	}
	if strings.Contains(banner, "[::]") || strings.Contains(banner, "0.0.0.0") {
		t.Errorf("the banner shows an address no laptop can use:\n%s", banner)
	}
	out.Reset()
	printBanner(&out, []string{"http://127.0.0.1:8765"}, false, "ABCD2345", "board.db", 60)
	if !strings.Contains(out.String(), "ADDR=0.0.0.0:8765") {
		t.Errorf("a board on loopback must say how to serve the room:\n%s", out.String())
	}
	if got := adminURL(tcp("[::]:8765")); got != "http://[::1]:8765" {
		t.Errorf("the instructor's commands reach [::]:8765 at %s", got)
	}
}

// make classroom, then make join, make board-remove and make board-clear from the same laptop,
// all on loopback.
func TestInstructorCommandsReachTheRunningBoard(t *testing.T) {
	root, state := t.TempDir(), filepath.Join(t.TempDir(), "board.db")
	printed := captureStdout(t)
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { _, err := ServeBoard(ctx, root, "127.0.0.1:0", state, 2); served <- err }()
	admin := board.AdminFile(state)
	var access struct{ URL string }
	g := gomega.NewWithT(t)
	g.Eventually(func() error {
		data, err := os.ReadFile(admin)
		if err == nil {
			err = json.Unmarshal(data, &access)
		}
		return err
	}).WithTimeout(10*time.Second).WithPolling(20*time.Millisecond).Should(gomega.Succeed(), "the board never wrote %s", admin)
	if fi, _ := os.Stat(admin); fi.Mode().Perm() != 0o600 {
		t.Errorf("%s holds the instructor's token: mode %v", admin, fi.Mode().Perm())
	}
	// The board prints its join code as it starts; the pipe's reader may not have it yet.
	g.Eventually(printed).WithTimeout(10 * time.Second).WithPolling(20 * time.Millisecond).Should(gomega.MatchRegexp("Join code: .*\n"))
	_, code, _ := strings.Cut(printed(), "Join code: ")
	code, _, _ = strings.Cut(code, "\n")
	for _, name := range []string{"ada", "linus"} {
		if ok, err := JoinBoard(ctx, t.TempDir(), access.URL, code, name); !ok || err != nil {
			t.Fatalf("join %s: %v", name, err)
		}
	}
	if _, err := JoinBoard(ctx, t.TempDir(), access.URL, code, "grace"); err == nil || !strings.Contains(err.Error(), "full (2 learners)") {
		t.Errorf("a third learner with MAX_LEARNERS=2: %v", err)
	}
	if ok, err := RemoveLearner(ctx, root, state, "ada"); !ok || err != nil {
		t.Errorf("remove ada: %v", err)
	}
	if ok, err := ClearBoard(ctx, root, state, false); !ok || err != nil {
		t.Errorf("clear: %v", err)
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(admin); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stopped board left %s", admin)
	}
	if _, err := RemoveLearner(t.Context(), root, state, "linus"); err == nil || !strings.Contains(err.Error(), "make classroom") {
		t.Errorf("with the board stopped: %v", err)
	}
}

// captureStdout sends what the commands print to a buffer; the function returns it so far
// (a reader goroutine copies it over, so poll for what you expect).
func captureStdout(t *testing.T) func() string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	var mu sync.Mutex
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		chunk := make([]byte, 4096)
		for {
			n, err := r.Read(chunk)
			mu.Lock()
			buf.Write(chunk[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		os.Stdout = stdout
		_ = w.Close()
		<-done
		t.Logf("printed:\n%s", buf.String())
	})
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return buf.String()
	}
}
