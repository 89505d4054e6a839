package loop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"golang.org/x/term"

	"workshop.local/scripts/internal/learner"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/say"
)

// debounce is how long the folder must be quiet after a change before a check starts: an
// editor's save is often several events (write, chmod, a rename over the old file).
const debounce = 150 * time.Millisecond

// Watch is `make watch`: it checks the current exercise, then again after every save of a file
// of the lesson, keeping the test binary warm (rebuilt by go test -c, which the build cache
// makes a relink) and the cluster up. On a terminal it draws one screen and reads single keys;
// without one (CI, a pipe) it prints plain lines and never reads its input.
func Watch(ctx context.Context, root, scratch string, lesson lessons.Lesson, start int) (bool, error) {
	list, err := learner.ReadExercisesIn(lesson.Dir, say.Chinese())
	if err != nil || len(list) == 0 {
		return false, say.Errorf("lesson %s's README lists no exercises to watch: %v", lesson.Number, err)
	}
	if start == 0 {
		if start, err = currentExercise(root, lesson); err != nil {
			return false, err
		}
	}
	release, err := oneWatch(scratch, lesson)
	if err != nil {
		var other *otherWatch
		if errors.As(err, &other) {
			fmt.Println(other)
			return false, nil
		}
		return false, err
	}
	defer release()
	saves, stop, err := watchSaves(ctx, lesson.Dir)
	if err != nil {
		return false, err
	}
	defer stop()
	w := &watcher{
		root: root, lesson: lesson, exercises: list, current: start,
		look: lookOf(os.Stdout), out: os.Stdout,
		checker: newChecker(root, scratch, lesson, "watch", os.Stdout, lookOf(os.Stdout)),
		stopped: make(chan struct{}),
	}
	keys, gone := make(chan byte), make(chan struct{})
	if w.look.tty && term.IsTerminal(int(os.Stdin.Fd())) {
		restore, err := rawKeys(ctx, keys, gone)
		if err != nil {
			return false, err
		}
		// A terminal that is gone has nothing to restore, and writing to it fails.
		defer func() {
			if !w.terminalGone {
				restore()
			}
		}()
		w.keys, w.out = true, crlf{os.Stdout}
		w.checker.out = w.out
	}
	return w.loop(ctx, saves, keys, gone)
}

// watcher is the state of one `make watch` session.
type watcher struct {
	root      string
	lesson    lessons.Lesson
	exercises []learner.ExerciseInfo
	current   int // the exercise being watched
	look      look
	keys      bool // single keys are read: a terminal on both ends
	out       io.Writer
	checker   *checker

	running  context.CancelFunc // the check under way, nil if none
	inflight sync.WaitGroup     // every check started, until its programs have ended
	stopped  chan struct{}      // closed when the loop ends: checks still running drop their results
	gen      int                // which check is the latest: older results are dropped
	pending  time.Time          // a save came while a check ran: check again after it
	asking   bool               // "reset? y/n" is on screen
	status   string             // the last check's verdict, a few lines
	message  string             // what the last key showed (a hint, the list, a reset)
	quitting bool

	terminalGone bool // the terminal was closed (reading a key failed): write nothing more to it
}

// result is what one check found, sent back to the loop.
type result struct {
	gen      int
	exercise int // 0: the whole lesson
	res      specrun.Result
	buildErr error
	err      error
	savedAt  time.Time
	took     time.Duration // from the save to the result
	building time.Duration // of which the rebuild
}

// loop runs checks and reacts to saves, keys and results until the learner quits, the tool is
// interrupted (Ctrl-C, SIGTERM, SIGHUP) or the terminal goes away. Whichever way it ends, the
// check under way is stopped and waited for, so no build or test binary outlives the watch.
func (w *watcher) loop(ctx context.Context, saves <-chan time.Time, keys <-chan byte, gone <-chan struct{}) (bool, error) {
	results := make(chan result)
	defer w.stop()
	w.start(ctx, results, w.current, time.Time{})
	for {
		select {
		case <-ctx.Done():
			return true, nil
		case <-gone:
			w.terminalGone = true
			return true, nil
		case at := <-saves:
			if w.running != nil {
				w.pending = at
				continue
			}
			w.start(ctx, results, w.current, at)
		case k := <-keys:
			w.key(ctx, results, k)
		case r := <-results:
			if r.gen != w.gen {
				continue // a check cancelled for a newer one
			}
			w.running = nil
			if r.err != nil && ctx.Err() == nil && !w.quitting {
				return false, r.err
			}
			w.show(r)
			w.advance(ctx, results, r)
		}
		if w.quitting {
			w.stop()
			say.Fprintf(w.out, "Stopped watching. Your progress is saved: make progress\n")
			return true, nil
		}
	}
}

// start runs a check of one exercise (0: all) in the background; its result comes to results.
func (w *watcher) start(ctx context.Context, results chan<- result, exercise int, savedAt time.Time) {
	w.cancel()
	checkCtx, cancel := context.WithCancel(ctx)
	w.running, w.pending = cancel, time.Time{}
	w.gen++
	w.status = say.Sprintf("checking exercise %d...", exercise)
	if exercise == 0 {
		w.status = say.Sprintf("checking the whole lesson...")
	}
	if !w.keys {
		fmt.Fprintf(w.out, "[%s] %s\n", time.Now().Format("15:04:05"), w.status)
	}
	w.draw()
	gen := w.gen
	w.inflight.Add(1)
	go func() {
		defer w.inflight.Done()
		r := result{gen: gen, exercise: exercise, savedAt: savedAt}
		began := time.Now()
		r.buildErr = w.checker.build(checkCtx)
		r.building = time.Since(began)
		if r.buildErr == nil {
			r.res, r.err = w.checker.run(checkCtx, exercise, nil)
		}
		if checkCtx.Err() != nil {
			r.err, r.buildErr = nil, nil // cancelled for a newer check: nothing to report
		}
		r.took = time.Since(savedAt)
		select {
		case results <- r:
		case <-w.stopped:
		}
	}()
}

func (w *watcher) cancel() {
	if w.running != nil {
		w.running()
	}
}

// stop cancels the check under way and waits until every check's programs have ended (a
// cancelled test binary gets subprocess.Grace to clean up). It may be called more than once.
func (w *watcher) stop() {
	w.cancel()
	select {
	case <-w.stopped:
	default:
		close(w.stopped)
	}
	w.inflight.Wait()
}

// show turns a result into the status lines.
func (w *watcher) show(r result) {
	var b strings.Builder
	switch {
	case r.buildErr != nil:
		w.checker.compileFailure(&b, r.buildErr)
	case r.res.SuiteError != "" && len(r.res.Specs) == 0:
		say.Fprintf(&b, "%s the specs did not run: %s\n", w.look.mark(false), r.res.SuiteError)
	case r.exercise == 0:
		for _, e := range r.res.Exercises() {
			say.Fprintf(&b, "%s %s: %d of %d specs pass\n", w.look.mark(e.Done()), e.Title, e.Passed, e.Total)
		}
	default:
		w.exerciseVerdict(&b, r)
	}
	if warning := w.checker.notCounted(); warning != "" && r.buildErr == nil {
		fmt.Fprintln(&b, w.look.red(warning))
	}
	w.status = strings.TrimRight(b.String(), "\n")
	if !w.keys {
		fmt.Fprintf(w.out, "[%s] %s\n", time.Now().Format("15:04:05"), strings.ReplaceAll(w.status, "\n", "\n    "))
	}
	if r.buildErr == nil && r.err == nil && !r.savedAt.IsZero() {
		line := say.Sprintf("checked in %.1f s after the save (rebuild %.1f s)", r.took.Seconds(), r.building.Seconds())
		if w.keys {
			w.status += "\n" + w.look.dim(line)
		} else {
			fmt.Fprintln(w.out, "    "+line)
		}
	}
	w.draw()
}

func (w *watcher) exerciseVerdict(b *strings.Builder, r result) {
	for _, e := range r.res.Exercises() {
		if e.Number != r.exercise {
			continue
		}
		if e.Done() {
			say.Fprintf(b, "%s exercise %d passes: all %d specs.\n", w.look.mark(true), e.Number, e.Total)
			return
		}
		say.Fprintf(b, "%s exercise %d: %d of %d specs pass. First failure:\n  %s\n", w.look.mark(false), e.Number, e.Passed, e.Total, e.FirstFailure.Text)
		if e.FirstFailure.Failure != "" {
			fmt.Fprintf(b, "  %s\n", e.FirstFailure.Failure)
		}
		return
	}
	say.Fprintf(b, "%s no spec of exercise %d ran\n", w.look.mark(false), r.exercise)
}

// advance moves on after a pass: to the next exercise, checked right away (it may pass already).
func (w *watcher) advance(ctx context.Context, results chan<- result, r result) {
	if !w.pending.IsZero() {
		w.start(ctx, results, w.current, w.pending)
		return
	}
	if r.exercise == 0 || r.exercise != w.current || !w.passes(w.current) {
		return
	}
	if next := w.next(); next > 0 {
		w.message = say.Sprintf("%s Exercise %d passes. On to exercise %d.", w.look.green(say.Sprintf("Well done.")), w.current, next)
		w.current = next
		w.start(ctx, results, next, time.Time{})
		return
	}
	w.message = say.Sprintf("%s Every exercise of lesson %s passes. Press a to check them all together, q to quit.", w.look.green(say.Sprintf("Lesson done.")), w.lesson.Number)
	w.draw()
}

func (w *watcher) passes(n int) bool {
	s, err := learner.Load(w.root)
	return err == nil && s.Peek(w.lesson.Name, n).Passed
}

// next is the exercise after the current one, 0 after the last.
func (w *watcher) next() int {
	i := slices.IndexFunc(w.exercises, func(e learner.ExerciseInfo) bool { return e.Number == w.current })
	if i >= 0 && i+1 < len(w.exercises) {
		return w.exercises[i+1].Number
	}
	return 0
}

// key does what a key asks: h hint, l list, a all, r reset (after y), n next, q quit.
func (w *watcher) key(ctx context.Context, results chan<- result, k byte) {
	if w.asking {
		w.asking = false
		w.message = say.Sprintf("Nothing reset.")
		if k == 'y' || k == 'Y' {
			var b bytes.Buffer
			_, err := resetExercise(&b, nil, w.root, w.lesson, w.current, false)
			w.message = strings.TrimSpace(b.String())
			if err != nil {
				w.message = say.Sprintf("Reset failed: %v", err)
			}
		}
		w.draw()
		return
	}
	var b bytes.Buffer
	switch k {
	case 'q', 3, 4: // q, Ctrl-C, Ctrl-D: raw mode turns them into bytes
		w.quitting = true
		return
	case 'h':
		if _, err := showHint(&b, w.root, w.lesson, w.current); err != nil {
			fmt.Fprintln(&b, err)
		}
	case 'l':
		rows, _ := progressRows(w.root)
		printProgress(&b, w.look, rows, w.lesson.Name)
	case 'a':
		w.message = ""
		w.start(ctx, results, 0, time.Time{})
		return
	case 'r':
		w.asking = true
		say.Fprintf(&b, "Put back the starter of exercise %d? Your version is backed up first. Press y to reset, any other key to keep it.", w.current)
	case 'n':
		if next := w.next(); next > 0 && w.passes(w.current) {
			w.current, w.message = next, ""
			w.start(ctx, results, next, time.Time{})
			return
		}
		say.Fprintf(&b, "Exercise %d has not passed yet (or is the last): stay with it, or press h for a hint.", w.current)
	default:
		return
	}
	w.message = strings.TrimSpace(b.String())
	w.draw()
}

// draw shows the screen on a terminal; without one, new messages are printed as lines.
func (w *watcher) draw() {
	if !w.keys {
		if w.message != "" {
			fmt.Fprintln(w.out, w.message)
			w.message = ""
		}
		return
	}
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J") // home, clear screen
	done := 0
	for _, e := range w.exercises {
		if w.passes(e.Number) {
			done++
		}
	}
	say.Fprintf(&b, "%s  %s %d of %d exercises pass\n\n", w.look.bold(say.Sprintf("Lesson %s", w.lesson.Name)), progressBar(done, len(w.exercises), 20), done, len(w.exercises))
	for _, e := range w.exercises {
		if e.Number == w.current {
			fmt.Fprintf(&b, "%s\n", w.look.bold(say.Sprintf("Exercise %d: %s", e.Number, e.Title)))
		}
	}
	if file, line := w.lesson.TODO(w.current); file != "" {
		rel, _ := filepath.Rel(w.root, filepath.Join(w.lesson.Dir, file))
		say.Fprintf(&b, "edit %s:%d\n", rel, line)
	}
	fmt.Fprintf(&b, "\n%s\n", w.status)
	if line := mistakeLine(w.root, w.lesson, w.current, true); line != "" && !w.passes(w.current) {
		b.WriteString(line)
	}
	if w.message != "" {
		fmt.Fprintf(&b, "\n%s\n", w.message)
	}
	fmt.Fprintf(&b, "\n%s\n", w.look.dim(say.Sprintf("h hint   l list   a whole lesson   r reset exercise   n next   q quit   (checks again on every save)")))
	fmt.Fprint(w.out, b.String())
}

// watchSaves reports changes to the lesson's .go files, debounced: one time per burst, the
// time of its first event, when the check that follows is counted from.
func watchSaves(ctx context.Context, dir string) (<-chan time.Time, func(), error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, nil, err
	}
	if err := fw.Add(dir); err != nil {
		fw.Close()
		return nil, nil, err
	}
	saves := make(chan time.Time)
	go func() {
		var first time.Time
		var quiet <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-fw.Events:
				if !ok {
					return
				}
				if !strings.HasSuffix(ev.Name, ".go") || ev.Op == fsnotify.Chmod {
					continue
				}
				if first.IsZero() {
					first = time.Now()
				}
				quiet = time.After(debounce)
			case <-fw.Errors:
			case <-quiet:
				select {
				case saves <- first:
				case <-ctx.Done():
					return
				}
				first, quiet = time.Time{}, nil
			}
		}
	}()
	return saves, func() { fw.Close() }, nil
}

// rawKeys puts the terminal in raw mode (single keys, no echo) and sends each key to keys. When
// reading fails, the terminal is gone (a closed window, a dropped ssh connection: EOF, or EIO
// from a hung-up pseudo-terminal), and gone is closed: nobody is left to watch for.
func rawKeys(ctx context.Context, keys chan<- byte, gone chan<- struct{}) (restore func(), err error) {
	fd := int(os.Stdin.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	go func() {
		buf := make([]byte, 1)
		for {
			if n, err := os.Stdin.Read(buf); err != nil || n == 0 {
				close(gone)
				return
			}
			select {
			case keys <- buf[0]:
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { _ = term.Restore(fd, old) }, nil
}

// crlf writes "\r\n" for "\n": a terminal in raw mode does not return the carriage itself.
type crlf struct{ w io.Writer }

func (c crlf) Write(p []byte) (int, error) {
	_, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n")))
	return len(p), err
}
