package classroom

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"time"

	"workshop.local/scripts/internal/board"
)

// ServeBoard is make classroom: it runs the instructor's board on addr until Ctrl-C, its state in statePath.
func ServeBoard(ctx context.Context, root, addr, statePath string) (bool, error) {
	if statePath == "" {
		statePath = filepath.Join(root, ".classroom", "board.db")
	}
	b, err := board.Open(statePath)
	if err != nil {
		return false, err
	}
	defer b.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return false, fmt.Errorf("cannot listen on %s: %v (ADDR=host:port, e.g. ADDR=0.0.0.0:8765 for the room's network)", addr, err)
	}
	url := "http://" + ln.Addr().String()
	fmt.Printf("The board: %s (state in %s)\n", url, statePath)
	fmt.Printf("Join code: %s\n", b.Code())
	fmt.Printf("Learners run: make join BOARD=http://<this laptop's address>:%d CODE=%s\n", ln.Addr().(*net.TCPAddr).Port, b.Code())
	fmt.Println("Ctrl-C stops the board; its state stays for the next make classroom.")
	srv := &http.Server{Handler: b.Handler(), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second}
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

// JoinBoard is make join: it registers this workspace with the board at url (its join code,
// the learner's name), so that make check and make watch report each result there.
func JoinBoard(ctx context.Context, root, url, code, name string) (bool, error) {
	name, err := board.Join(ctx, root, url, code, name)
	if err != nil {
		return false, fmt.Errorf("joining %s as %q: %v (a board that refuses is forgotten; one that does not answer yet is kept)", url, name, err)
	}
	fmt.Printf("Joined the board %s as %q: every make check and make watch now sends your per-exercise results (never your code).\n", url, name)
	return true, nil
}
