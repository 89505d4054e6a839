package specrun

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"workshop.local/scripts/internal/buildprogress"
	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/subprocess"
	"workshop.local/scripts/internal/text"
)

// BuildOptions say how to build a lesson's test binary.
type BuildOptions struct {
	OverlayFile string // "" builds the learner's files; else go build's -overlay file
	Binary      string // where the test binary goes
	// Progress, when set, is told how far the build is each time a package is compiled. Counting
	// costs a `go list` (half a second) before the build, so leave it nil for quick rebuilds.
	Progress func(buildprogress.Progress)
}

// BuildError is a build that failed: the compiler's output, and its file:line lines.
type BuildError struct {
	Output string
	Errors []CompileError
}

func (e *BuildError) Error() string { return "the test binary did not build\n" + e.Output }

// CompileError is one "file:line:col: message" line of the compiler, with the file made
// absolute so a caller can say which exercise it belongs to.
type CompileError struct {
	File    string // absolute
	Line    int
	Message string // the whole line as the compiler printed it, path relative to the lesson
}

// Build is `go test -c` in the lesson's folder. No vet (make test vets every solution once) and
// no debug symbols (the linker's biggest cost; stack traces still work): a rebuild after a
// learner's save is mostly the link, and every second of it is felt.
func Build(ctx context.Context, l lessons.Lesson, o BuildOptions) error {
	flags := l.TestFlags()
	if o.OverlayFile != "" {
		flags = append(flags, "-overlay="+o.OverlayFile)
	}
	args := append([]string{"test", "-c", "-o", o.Binary, "-vet=off", "-ldflags=-s -w"}, flags...)
	total := 0
	if o.Progress != nil {
		total = buildprogress.StaleTest(ctx, l.Dir, nil, flags, ".")
		args = append(args, "-x") // one compile command per package: that is what is counted
	}
	cmd := subprocess.Command(ctx, "go", append(args, ".")...)
	cmd.Dir = l.Dir
	var out strings.Builder
	cmd.Stdout = &out
	if o.Progress == nil {
		cmd.Stderr = &out
		return buildResult(ctx, l, cmd.Run(), out.String())
	}
	// The compiler's messages come on stderr, through the trace follower into their own buffer.
	var messages strings.Builder
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	var wg sync.WaitGroup
	wg.Go(func() { buildprogress.Follow(pr, &messages, total, o.Progress) })
	err := cmd.Run()
	pw.Close()
	wg.Wait()
	return buildResult(ctx, l, err, messages.String()+out.String())
}

func buildResult(ctx context.Context, l lessons.Lesson, err error, out string) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	if l.Manifest.Race && raceNeedsCgo(out) {
		return fmt.Errorf("lesson %s builds its specs with Go's race detector (-race), which needs cgo and a C compiler, and this machine has none: "+
			"install one (Debian/Ubuntu: apt install gcc; macOS: xcode-select --install), make sure CGO_ENABLED is not 0, then check again; make doctor says what it finds.\n%s",
			l.Number, text.Tail(strings.TrimSpace(out), 3, "  "))
	}
	return &BuildError{Output: strings.TrimSpace(out), Errors: compileErrors(l.Dir, out)}
}

// raceNeedsCgo: go's words when -race cannot build, with cgo off or no C compiler.
func raceNeedsCgo(out string) bool {
	return strings.Contains(out, "-race requires cgo") || strings.Contains(out, "C compiler") && strings.Contains(out, "not found")
}

// compileErrorLine is "./parse.go:12:3: undefined: x" (column optional, path relative or not).
var compileErrorLine = regexp.MustCompile(`^(\S+\.go):(\d+)(?::\d+)?: `)

func compileErrors(dir, out string) []CompileError {
	var errs []CompileError
	for _, line := range strings.Split(out, "\n") {
		m := compileErrorLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		n, _ := strconv.Atoi(m[2])
		errs = append(errs, CompileError{File: file, Line: n, Message: line})
	}
	return errs
}

// markerLine finds "TODO(exercise N)" in learner files and "harness.Exercise(N)" in spec files.
var markerLine = regexp.MustCompile(`TODO\(exercise (\d+)\)|harness\.Exercise\((\d+)\)`)

// ExerciseAt says which exercise a line of a lesson file belongs to: the nearest exercise marker
// at or above it, else the first one below it; 0 when the file has none.
func ExerciseAt(file string, line int) int {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	found := 0
	for i, text := range strings.Split(string(data), "\n") {
		m := markerLine.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1] + m[2])
		if i+1 > line { // below the line: only if nothing was above it
			if found == 0 {
				found = n
			}
			break
		}
		found = n
	}
	return found
}
