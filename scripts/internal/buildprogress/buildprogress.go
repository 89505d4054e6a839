// Package buildprogress counts how far a long `go build` or `go test -c` is: how many packages
// it will compile (go list knows from the build cache) and how many it has compiled so far (go's
// -x trace prints one compile command per package). The first build of a lesson's specs or of
// the local cluster takes minutes; a count that moves says it is not hung.
package buildprogress

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
)

// Progress is how far a build is.
type Progress struct {
	Compiled, Total int
	Package         string // the package last started
	Linking         bool
}

func (p Progress) String() string {
	if p.Linking {
		return fmt.Sprintf("linking, %d packages compiled", p.Compiled)
	}
	return fmt.Sprintf("%d of %d packages compiled (%s)", p.Compiled, p.Total, p.Package)
}

// Stale counts the packages a build of patterns in dir will compile: those go list reports
// stale (not in the build cache). flags are the build's own (-overlay, -mod, ...), env its
// environment (nil: this process's). On any error it returns 0: the count is a nicety.
func Stale(ctx context.Context, dir string, env []string, flags []string, patterns ...string) int {
	args := append([]string{"list", "-deps", "-f", "{{if .Stale}}x{{end}}"}, flags...)
	cmd := exec.CommandContext(ctx, "go", append(args, patterns...)...)
	cmd.Dir, cmd.Env = dir, env
	out, _ := cmd.Output()
	return strings.Count(string(out), "x")
}

// StaleTest is Stale for `go test -c`: the package's tests and their imports count too.
func StaleTest(ctx context.Context, dir string, env []string, flags []string, pattern string) int {
	return Stale(ctx, dir, env, append([]string{"-test"}, flags...), pattern)
}

// Follow reads go's -x trace from r (the build's stderr) until it ends: each compile command
// is a package, the link command the last step, and progress is told of each. Everything that
// is not part of the trace (the compiler's own messages) is copied to out, so a failed build
// still reports its errors.
func Follow(r io.Reader, out io.Writer, total int, progress func(Progress)) {
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 64*1024), 4*1024*1024)
	p := Progress{Total: total}
	for scanner.Scan() {
		line := scanner.Text()
		switch {
		case strings.Contains(line, "/compile -o ") && strings.Contains(line, " -p "):
			p.Compiled++
			p.Package = packageOf(line)
			p.Total = max(p.Total, p.Compiled)
			progress(p)
		case strings.Contains(line, "/link -o "):
			p.Linking = true
			progress(p)
		case isTraceLine(line):
		default:
			fmt.Fprintln(out, line)
		}
	}
	_, _ = io.Copy(io.Discard, r) // a line too long for the scanner must not block the build
}

func packageOf(compile string) string {
	fields := strings.Fields(compile)
	for i, f := range fields {
		if f == "-p" && i+1 < len(fields) {
			return fields[i+1]
		}
	}
	return ""
}

// compilerMessage is what go and the compiler print besides the trace: "# package" headers,
// "file.go:12:3: ..." errors, their indented continuations, FAIL lines, downloads.
var compilerMessage = regexp.MustCompile(`^(#|\S+\.go:\d+|\s+|FAIL|note:|too many errors|go: )`)

// isTraceLine is true for what -x prints: commands, heredocs (importcfg's "# import config"
// included), cd, mkdir, WORK=.
func isTraceLine(line string) bool {
	return line == "" || !compilerMessage.MatchString(line) || strings.HasPrefix(line, "# import config")
}
