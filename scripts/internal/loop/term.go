package loop

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// look is how output should look on this stdout: colour and a redrawn status line only on a
// terminal, and colour not at all when NO_COLOR is set (https://no-color.org). Piped into a
// file or a CI log, the output is plain lines.
type look struct {
	tty, color bool
}

func lookOf(f *os.File) look {
	tty := term.IsTerminal(int(f.Fd()))
	return look{tty: tty, color: tty && os.Getenv("NO_COLOR") == ""}
}

func (l look) paint(code, s string) string {
	if !l.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (l look) green(s string) string { return l.paint("32", s) }
func (l look) red(s string) string   { return l.paint("31", s) }
func (l look) bold(s string) string  { return l.paint("1", s) }
func (l look) dim(s string) string   { return l.paint("2", s) }

// mark is the one-character verdict of a spec or an exercise.
func (l look) mark(passed bool) string {
	if passed {
		return l.green("✓")
	}
	return l.red("✗")
}

// status shows a line that moves while something long runs: redrawn in place on a terminal,
// a new line every few seconds in a log. done ends it.
type status struct {
	out   io.Writer
	look  look
	start time.Time
	last  time.Time
	shown bool
}

func newStatus(out io.Writer, l look) *status { return &status{out: out, look: l, start: time.Now()} }

func (s *status) show(text string) {
	now := time.Now()
	line := fmt.Sprintf("%s (%s)", text, now.Sub(s.start).Round(time.Second))
	if s.look.tty {
		fmt.Fprintf(s.out, "\r\x1b[K%s", line)
		s.shown = true
		return
	}
	if now.Sub(s.last) >= 5*time.Second {
		fmt.Fprintln(s.out, line)
		s.last = now
	}
}

func (s *status) done() {
	if s.shown {
		fmt.Fprint(s.out, "\r\x1b[K")
		s.shown = false
	}
}

// progressBar is "[####------]" for done of total.
func progressBar(done, total, width int) string {
	if total == 0 {
		return "[" + strings.Repeat("-", width) + "]"
	}
	n := done * width / total
	return "[" + strings.Repeat("#", n) + strings.Repeat("-", width-n) + "]"
}
