package workspace

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// RunCommand is the main of the workspace's commands that answer ok or not: Ctrl-C cancels the
// context run gets, an error exits 2 with the command's name ("check: ..."), and a run that
// reports not ok (a failing check, a laptop not ready) exits 1, so make and scripts can tell a
// verdict from a breakdown.
func RunCommand(name string, run func(ctx context.Context, args []string) (ok bool, err error)) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	ok, err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, name+": "+err.Error())
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}
