package variants

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"workshop.local/scripts/internal/lessons"
)

// CaughtByFile is the file in wrong/ that names, for each wrong solution, a spec of its
// exercise that caught it when make test or make test-wrong last ran it. make test runs that
// spec first and the rest of the exercise only if it passes: a wrong solution is still proven
// caught by a failing spec of its own exercise, at the cost of one spec instead of every spec
// before the first that fails. A stale line costs time, never a verdict.
const CaughtByFile = "caught-by.tsv"

const caughtByHeader = `# Written by make test and make test-wrong: for each wrong solution, a spec of its exercise
# that caught it (make test-wrong picks the quickest). make test runs that spec first, then the
# whole exercise only if it passes, so a line that has gone stale costs time, never a verdict.
`

// CaughtBy reads the lesson's CaughtByFile: wrong solution name -> full spec text. No file is
// an empty map.
func CaughtBy(l lessons.Lesson) (map[string]string, error) {
	caught := map[string]string{}
	f, err := os.Open(filepath.Join(WrongDir(l), CaughtByFile))
	if os.IsNotExist(err) {
		return caught, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		line := lines.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, spec, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("%s: a line must be <wrong solution>TAB<spec>, not %q", f.Name(), line)
		}
		caught[name] = spec
	}
	return caught, lines.Err()
}

// WriteCaughtBy writes caught as the lesson's CaughtByFile, in name order; an empty map removes
// the file.
func WriteCaughtBy(l lessons.Lesson, caught map[string]string) error {
	path := filepath.Join(WrongDir(l), CaughtByFile)
	if len(caught) == 0 {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	var b strings.Builder
	b.WriteString(caughtByHeader)
	for _, name := range slices.Sorted(maps.Keys(caught)) {
		fmt.Fprintf(&b, "%s\t%s\n", name, caught[name])
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
