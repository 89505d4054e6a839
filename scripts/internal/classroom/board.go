package classroom

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"workshop.local/scripts/internal/board"
	"workshop.local/scripts/internal/learner"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/variants"
)

// BoardState is where the board's database is: statePath, or .classroom/board.db by default.
func BoardState(root, statePath string) string {
	if statePath == "" {
		return filepath.Join(root, ".classroom", "board.db")
	}
	return statePath
}

// ServeBoard is make classroom: it runs the instructor's board on addr until Ctrl-C, its state
// in statePath, taking up to maxLearners (0: the default) learners.
func ServeBoard(ctx context.Context, root, addr, statePath string, maxLearners int) (bool, error) {
	statePath = BoardState(root, statePath)
	digest, err := lessons.SpecsDigest(root)
	if err != nil { // the board still serves; it just cannot tell whose specs differ
		fmt.Printf("Note: this workspace's specs cannot be read (%v), so the board will not mark learners whose specs differ.\n", err)
	}
	b, err := board.Open(statePath, board.Options{MaxLearners: maxLearners, Lessons: catalog(root), SpecsDigest: digest, Mistakes: knownMistakes(root)})
	if err != nil {
		return false, err
	}
	defer b.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return false, fmt.Errorf("cannot listen on %s: %v (ADDR=host:port, e.g. ADDR=0.0.0.0:8765 for the room's network)", addr, err)
	}
	admin := board.AdminFile(statePath)
	if err := board.WriteAdminFile(admin, adminURL(ln.Addr()), b.AdminToken()); err != nil {
		return false, fmt.Errorf("cannot write %s for the instructor's commands: %v", admin, err)
	}
	defer os.Remove(admin)
	urls, lanOnly := boardURLs(ln.Addr(), net.Interfaces, (*net.Interface).Addrs)
	printBanner(os.Stdout, urls, lanOnly, b.Code(), statePath, b.MaxLearners())
	srv := &http.Server{Handler: b.Handler(), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 20 * time.Second, IdleTimeout: 30 * time.Second, MaxHeaderBytes: 16 << 10}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return false, err
	}
	return true, nil
}

// catalog is the workshop's lessons and their exercises (the README's "### Exercise N"): the
// board keeps results for these only. nil (any lesson) if the workspace has none.
func catalog(root string) board.Catalog {
	all, err := lessons.Discover(root)
	if err != nil || len(all) == 0 {
		return nil
	}
	c := board.Catalog{}
	for _, l := range all {
		list, err := learner.ReadExercises(l.Dir)
		if err != nil {
			continue
		}
		for _, e := range list {
			c[l.Name] = append(c[l.Name], e.Number)
		}
	}
	return c
}

// knownMistakes are the sentences of every lesson's wrong solutions, by lesson and name, for the
// board's failures view.
func knownMistakes(root string) map[string]map[string]string {
	all, err := lessons.Discover(root)
	if err != nil {
		return nil
	}
	known := map[string]map[string]string{}
	for _, l := range all {
		list, _ := variants.Wrong(l)
		for _, w := range list {
			if w.Problem != "" {
				continue
			}
			if known[l.Name] == nil {
				known[l.Name] = map[string]string{}
			}
			known[l.Name][w.Name] = w.Summary
		}
	}
	return known
}

// adminURL is where the instructor's commands reach the board on this laptop.
func adminURL(listen net.Addr) string {
	tcp, ok := listen.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return "http://" + listen.String()
	}
	loopback := "127.0.0.1"
	if tcp.IP.To4() == nil {
		loopback = "::1"
	}
	return "http://" + net.JoinHostPort(loopback, strconv.Itoa(tcp.Port))
}

// boardURLs are the addresses at which learners reach a board listening on listen: that
// address, or when it listens on every interface (0.0.0.0, [::]), each address of each
// interface that is up, loopback and link-local ones left out (no other laptop can use them).
// room is false when only this laptop can reach the board.
func boardURLs(listen net.Addr, ifaces func() ([]net.Interface, error), addrs func(*net.Interface) ([]net.Addr, error)) (urls []string, room bool) {
	tcp, ok := listen.(*net.TCPAddr)
	if !ok {
		return []string{"http://" + listen.String()}, true
	}
	port := strconv.Itoa(tcp.Port)
	if !tcp.IP.IsUnspecified() {
		return []string{"http://" + net.JoinHostPort(tcp.IP.String(), port)}, !tcp.IP.IsLoopback()
	}
	list, _ := ifaces()
	for i := range list {
		if list[i].Flags&net.FlagUp == 0 || list[i].Flags&net.FlagLoopback != 0 {
			continue
		}
		as, _ := addrs(&list[i])
		for _, a := range as {
			ip := ipOf(a)
			if ip == nil || ip.IsLoopback() || ip.IsLinkLocalUnicast() || (tcp.IP.To4() != nil && ip.To4() == nil) {
				continue
			}
			urls = append(urls, "http://"+net.JoinHostPort(ip.String(), port))
		}
	}
	return urls, true
}

func ipOf(a net.Addr) net.IP {
	switch a := a.(type) {
	case *net.IPNet:
		return a.IP
	case *net.IPAddr:
		return a.IP
	}
	return nil
}

// printBanner tells the instructor where learners reach the board and what to tell them.
func printBanner(w io.Writer, urls []string, room bool, code, statePath string, max int) {
	join := "http://<this laptop's address>:<port>"
	switch {
	case len(urls) == 0:
		fmt.Fprintln(w, "The board listens on every interface, but no network interface besides loopback is up: connect this laptop to the room's network.")
	default:
		join = urls[0]
		fmt.Fprintf(w, "The board: %s (state in %s, up to %d learners)\n", urls[0], statePath, max)
		for _, u := range urls[1:] {
			fmt.Fprintf(w, "       or: %s\n", u)
		}
	}
	if !room {
		fmt.Fprintln(w, "Only this laptop can reach it: make classroom ADDR=0.0.0.0:8765 serves the room's network.")
	}
	fmt.Fprintf(w, "Join code: %s\n", code)
	fmt.Fprintf(w, "Learners run: make join BOARD=%s CODE=%s NAME=\"<their name>\"\n", join, code)
	if len(urls) > 1 {
		fmt.Fprintln(w, "  (with the address above that is on the room's network)")
	}
	fmt.Fprintln(w, "In another terminal here: make board-remove NAME=... takes a learner off (their name is free again); make board-clear empties the board.")
	fmt.Fprintln(w, "Ctrl-C stops the board; its state stays for the next make classroom.")
}

// JoinBoard is make join: it registers this workspace with the board at url (its join code,
// the learner's name), so that make check and make watch report each result there.
func JoinBoard(ctx context.Context, root, url, code, name string) (bool, error) {
	name, err := board.Join(ctx, root, url, code, name)
	var firstReport *board.FirstReportError
	if errors.As(err, &firstReport) {
		fmt.Printf("Joined the board %s as %q, but: %v\n", url, name, firstReport.Unwrap())
		fmt.Println("The join is kept: every make check reports again.")
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("joining %s as %q: %v (a board that refuses is forgotten; one that does not answer yet is kept, and the next make check joins)", url, name, err)
	}
	fmt.Printf("Joined the board %s as %q: every make check and make watch now sends your per-exercise results (never your code).\n", url, name)
	return true, nil
}

// RemoveLearner is make board-remove: it takes a learner off the running board.
func RemoveLearner(ctx context.Context, root, statePath, name string) (bool, error) {
	if name == "" {
		return false, errors.New("which learner? make board-remove NAME=\"<their name as the board shows it>\"")
	}
	removed, err := board.Remove(ctx, board.AdminFile(BoardState(root, statePath)), name)
	if err != nil {
		return false, err
	}
	fmt.Printf("Removed %q from the board: the name is free, and that laptop's reports are refused until it joins again.\n", removed)
	return true, nil
}

// ClearBoard is make board-clear: it takes every learner off the running board, and gives it a
// new join code when newCode.
func ClearBoard(ctx context.Context, root, statePath string, newCode bool) (bool, error) {
	answer, err := board.Clear(ctx, board.AdminFile(BoardState(root, statePath)), newCode)
	if err != nil {
		return false, err
	}
	fmt.Printf("Cleared the board: %s removed; to report again, they run make join again.\n", plural(answer.Removed, "learner"))
	if newCode {
		fmt.Printf("New join code: %s (the old one no longer works)\n", answer.Code)
	}
	return true, nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
