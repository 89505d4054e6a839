package versions_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"workshop.local/scripts/versions"
)

// A pinned tool: a program the workshop runs at its pin (controller-gen, kubebuilder, the
// code-generator's generators), as opposed to a library a go.mod requires.
type pinnedTool struct {
	key   string         // its key in versions.env, the module path
	names []string       // what a line calls it, for a version it shares with other pins
	cites *regexp.Regexp // a link into its repository (blob/TAG, tree/TAG) or godoc (pkg@TAG)
}

func newPinnedTool(key, repo string, names ...string) pinnedTool {
	cites := regexp.MustCompile(`^https?://(?:` + regexp.QuoteMeta(repo) + `/(?:blob|tree)/|pkg\.go\.dev/` +
		regexp.QuoteMeta(key) + `(?:/[^@]*)?@)([^/#?]+)`)
	return pinnedTool{key, names, cites}
}

var pinnedTools = []pinnedTool{
	newPinnedTool("sigs.k8s.io/controller-tools", "github.com/kubernetes-sigs/controller-tools", "controller-tools", "controller-gen"),
	newPinnedTool("sigs.k8s.io/kubebuilder/v4", "github.com/kubernetes-sigs/kubebuilder", "kubebuilder"),
	newPinnedTool("k8s.io/code-generator", "github.com/kubernetes/code-generator", "code-generator"),
}

// The lines outside a go.mod where `make pins` (scripts/pins.sh) writes a pinned tool's version:
// keep these and pins.sh in step.
var (
	goGenerate    = regexp.MustCompile(`^//go:generate go run (\S+)@(\S+)`)
	workshopBlock = regexp.MustCompile(`^CONTROLLER_TOOLS_VERSION := (\S+)`) // lesson 11's, not its scaffold's ?=
	// controller-gen stamps what it generates; make test regenerates those files and compares.
	generatedStamp = regexp.MustCompile(`^\s*controller-gen\.kubebuilder\.io/version: `)
)

// pinnedPlace is the version a line written by make pins (or by the pinned tool) holds for tool.
func pinnedPlace(tool pinnedTool, pin, line string) (version string, ok bool) {
	if m := goGenerate.FindStringSubmatch(line); m != nil && strings.HasPrefix(m[1], tool.key+"/") {
		return m[2], true
	}
	if tool.key != "sigs.k8s.io/controller-tools" {
		return "", false
	}
	if m := workshopBlock.FindStringSubmatch(line); m != nil {
		return m[1], true
	}
	return pin, generatedStamp.MatchString(line)
}

// A link into an upstream repository or its godoc at a tag: a citation of the source the text
// around it was checked against.
var url = regexp.MustCompile(`https?://[^\s)>\]"']+`)

// TestPinnedToolVersionsLiveInVersionsEnv: a pinned tool's version is written in versions.env and
// in the places make pins rewrites from it, nowhere else, so moving a pin is one edit and one
// `make pins`. A link to the tool's source must cite the pinned tag: after a pin moves, the text
// around the link has to be read again against the new source.
func TestPinnedToolVersionsLiveInVersionsEnv(t *testing.T) {
	pins := versions.Load()
	for _, path := range textFiles(t) {
		forEachLine(t, path, func(n int, line string) {
			for _, tool := range pinnedTools {
				for _, problem := range toolLiteralProblems(pins, tool, line) {
					t.Errorf("%s:%d: %s", path, n, problem)
				}
			}
		})
	}
}

// toolLiteralProblems says what is wrong with how line names tool's version, if anything.
func toolLiteralProblems(pins versions.Pins, tool pinnedTool, line string) []string {
	pin := pins.Get(tool.key)
	var problems []string
	for _, link := range url.FindAllString(line, -1) {
		if tag := citedTag(tool, link); tag != "" && tag != pin {
			problems = append(problems, fmt.Sprintf("cites %s at %s, but versions.env pins %s: re-read that source at the pin and update the link and the text around it", tool.key, tag, pin))
		}
	}
	rest := url.ReplaceAllString(line, "")
	if version, ok := pinnedPlace(tool, pin, rest); ok {
		if version != pin {
			problems = append(problems, fmt.Sprintf("%s is at %s, not at its pin %s: run make pins", tool.key, version, pin))
		}
		return problems
	}
	if strings.Contains(rest, pin) && namesTool(pins, tool, rest) {
		problems = append(problems, fmt.Sprintf("names %s %s outside versions.env and the places make pins writes: move it to versions.env (and teach make pins to write it there), or stop naming the number", tool.key, pin))
	}
	return problems
}

// citedTag is the tag a link into tool's repository or godoc names, or "".
func citedTag(tool pinnedTool, link string) string {
	if m := tool.cites.FindStringSubmatch(link); m != nil {
		return m[1]
	}
	return ""
}

// namesTool: a version only this tool is pinned at counts wherever it appears; one it shares
// (code-generator's is client-go's) only on a line that names the tool.
func namesTool(pins versions.Pins, tool pinnedTool, line string) bool {
	pin := pins[tool.key]
	for key, value := range pins {
		if key != tool.key && value == pin {
			for _, name := range tool.names {
				if strings.Contains(line, name) {
					return true
				}
			}
			return false
		}
	}
	return true
}

// TestToolLiteralProblems shows the rules on single lines.
func TestToolLiteralProblems(t *testing.T) {
	pins := versions.Pins{"sigs.k8s.io/controller-tools": "v0.23.0", "k8s.io/client-go": "v0.37.2", "k8s.io/code-generator": "v0.37.2"}
	ct, cg := pinnedTools[0], pinnedTools[2]
	for _, c := range []struct {
		tool pinnedTool
		line string
		want string // a word of the problem, or "" for none
	}{
		{ct, "//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0 object paths=.", ""},
		{ct, "//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.22.0 object paths=.", "run make pins"},
		{ct, "CONTROLLER_TOOLS_VERSION := v0.23.0", ""},
		{ct, "CONTROLLER_TOOLS_VERSION := v0.21.0", "run make pins"},
		{ct, "    controller-gen.kubebuilder.io/version: v0.23.0", ""},
		{ct, "CONTROLLER_TOOLS_VERSION ?= v0.22.0", ""}, // the scaffold's own default
		{ct, "- controller-tools, at the pin: [zip.go](https://github.com/kubernetes-sigs/controller-tools/blob/v0.23.0/pkg/markers/zip.go)", ""},
		{ct, "[zip.go](https://github.com/kubernetes-sigs/controller-tools/blob/v0.22.0/pkg/markers/zip.go)", "re-read"},
		{ct, "[controller-gen](https://pkg.go.dev/sigs.k8s.io/controller-tools/cmd/controller-gen@v0.21.0#section-readme)", "re-read"},
		{ct, "controller-tools v0.23.0 also knows +k8s:immutable", "move it to versions.env"},
		{ct, "set to the workshop's pin v0.23.0 by the block at the end", "move it to versions.env"},
		{cg, "client-go v0.37.2 is the pinned library", ""}, // code-generator shares the number
		{cg, "code-generator v0.37.2 writes listers", "move it to versions.env"},
	} {
		got := strings.Join(toolLiteralProblems(pins, c.tool, c.line), "; ")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%q: got %q, want a problem containing %q", c.line, got, c.want)
		}
	}
}

// textFiles are the files a version could be written in: everything under lessons, solutions,
// scripts, kind and docs, and the root Makefile, but go.mod and go.sum (TestEveryGoModMatchesThePins
// checks those), versions.env itself and this file's own examples.
func textFiles(t *testing.T) []string {
	t.Helper()
	skip := map[string]bool{"go.mod": true, "go.sum": true, "versions.env": true, "literals_test.go": true, "specs.sha256": true}
	files := []string{"Makefile"}
	for _, dir := range []string{"lessons", "solutions", "scripts", "kind", "docs"} {
		err := filepath.WalkDir(filepath.Join(root(t), dir), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "bin" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if !d.IsDir() && !skip[d.Name()] {
				rel, _ := filepath.Rel(root(t), path)
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

func forEachLine(t *testing.T, rel string, fn func(n int, line string)) {
	t.Helper()
	f, err := os.Open(filepath.Join(root(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for n := 1; scanner.Scan(); n++ {
		fn(n, scanner.Text())
	}
	if err := scanner.Err(); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}
