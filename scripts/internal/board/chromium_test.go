package board

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/onsi/gomega"
	"golang.org/x/net/websocket"
)

// TestBoardInHeadlessChromium drives the page in Debian's chromium through the DevTools
// protocol: it checks what a browser shows (rows, states, a hostile name shown as text and not
// run), then that a learner's new report appears without anyone reloading the page, and that
// the failures view counts the learners stuck on one known mistake under its sentence.
func TestBoardInHeadlessChromium(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH: the browser test needs Debian's chromium (apt-get install chromium)")
	}
	b := newTestBoard(t, filepath.Join(t.TempDir(), "board.db"), Options{
		Mistakes: map[string]map[string]string{"02-clients": {"copies-data-only": "it copies Data only on update"}},
	})
	b.s.now = time.Now
	b.report("ada", "01-gvk-gvr", 1, true, "")
	b.report(`<img src=x onerror="document.title=1">`, "01-gvk-gvr", 1, false, "Expected <nil> to equal apps/v1")

	ctx, cancel := context.WithTimeout(t.Context(), 40*time.Second)
	defer cancel()
	page := openInChromium(ctx, t, browser, b.srv.URL+"/")

	rows := page.waitFor(ctx, `document.querySelectorAll("tr.learner").length + " " + document.title + " " + document.querySelectorAll("#board img").length`, "2 Workshop board 0")
	t.Logf("shown: %s", rows)
	names := page.eval(ctx, `[...document.querySelectorAll("td.name")].map(td => td.textContent).join("|")`)
	if names != `<img src=x onerror="document.title=1">|ada` { // sorted by name: "<" before "a"
		t.Errorf("names shown: %q", names)
	}
	states := page.eval(ctx, `[...document.querySelectorAll("tr.learner td:nth-child(3)")].map(td => td.className).join("|")`)
	if states != "failing|passed" {
		t.Errorf("exercise states shown: %q", states)
	}

	b.report("grace", "01-gvk-gvr", 2, true, "") // while the page is open
	page.waitFor(ctx, `document.querySelectorAll("tr.learner").length + ""`, "3")

	b.reportMistake("ada", "02-clients", 3, "Expected binaryData", "copies-data-only")
	b.reportMistake("grace", "02-clients", 3, "Expected labels", "copies-data-only")
	failures := openInChromium(ctx, t, browser, b.srv.URL+"/failures")
	group := failures.waitFor(ctx, `[...document.querySelectorAll("#failures tr")].slice(1, 2).map(tr => [...tr.cells].slice(0, 3).map(td => td.textContent).join(" | ")).join("")`,
		"02-clients #3 | 2 | known mistake: it copies Data only on update (copies-data-only)")
	t.Logf("failures view: %s", group)
}

// cdpPage is one page of a headless chromium, spoken to over the DevTools protocol.
type cdpPage struct {
	t    *testing.T
	ws   *websocket.Conn
	next int
}

func openInChromium(ctx context.Context, t *testing.T, browser, url string) *cdpPage {
	t.Helper()
	// chromium's helper processes (renderer, GPU, zygote) outlive its main one and keep writing
	// to the profile: run them all in a process group of their own, kill the group, and remove
	// the profile after, best effort (not t.TempDir, whose cleanup fails on a late write).
	profile, err := os.MkdirTemp("", "board-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+profile, "--remote-debugging-port=0", "--remote-allow-origins=*", url)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		// chromium's helpers, killed with it, may still be closing files in the profile: retry
		// the removal for up to a second.
		retry := time.NewTicker(100 * time.Millisecond)
		defer retry.Stop()
		for range 10 {
			if os.RemoveAll(profile) == nil {
				return
			}
			<-retry.C
		}
	})
	// chromium prints "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/ID".
	debugHost := ""
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if _, after, ok := strings.Cut(lines.Text(), "DevTools listening on ws://"); ok {
			debugHost, _, _ = strings.Cut(after, "/")
			break
		}
	}
	if debugHost == "" {
		t.Fatal("chromium did not print its DevTools address")
	}
	go func() { // keep reading, or chromium blocks on a full pipe
		for lines.Scan() {
		}
	}()
	var targets []struct{ Type, URL, WebSocketDebuggerURL string }
	resp, err := http.Get("http://" + debugHost + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		t.Fatal(err)
	}
	for _, target := range targets {
		if target.Type == "page" {
			ws, err := websocket.Dial(target.WebSocketDebuggerURL, "", "http://localhost/")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ws.Close() })
			return &cdpPage{t: t, ws: ws}
		}
	}
	t.Fatalf("chromium has no page open: %+v", targets)
	return nil
}

// eval runs a JavaScript expression in the page and returns its value as a string ("" while
// the page is between loads).
func (p *cdpPage) eval(ctx context.Context, expr string) string {
	p.t.Helper()
	p.next++
	id := p.next
	call := map[string]any{"id": id, "method": "Runtime.evaluate", "params": map[string]any{"expression": expr, "returnByValue": true}}
	if deadline, ok := ctx.Deadline(); ok {
		_ = p.ws.SetDeadline(deadline)
	}
	if err := websocket.JSON.Send(p.ws, call); err != nil {
		p.t.Fatal(err)
	}
	for {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				Result struct{ Value any } `json:"result"`
			} `json:"result"`
		}
		if err := websocket.JSON.Receive(p.ws, &msg); err != nil {
			p.t.Fatalf("reading from chromium: %v", err)
		}
		if msg.ID == id {
			if msg.Result.Result.Value == nil {
				return ""
			}
			return fmt.Sprint(msg.Result.Result.Value)
		}
	}
}

// waitFor evaluates expr until it gives want (the page refreshes itself every 5 s).
func (p *cdpPage) waitFor(ctx context.Context, expr, want string) string {
	p.t.Helper()
	wait := time.Minute
	if deadline, ok := ctx.Deadline(); ok {
		wait = time.Until(deadline)
	}
	gomega.NewWithT(p.t).Eventually(ctx, func() string { return p.eval(ctx, expr) }).
		WithTimeout(wait).WithPolling(200*time.Millisecond).Should(gomega.Equal(want), "the page never showed %q", want)
	return want
}
