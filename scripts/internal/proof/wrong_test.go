package proof

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
	"workshop.local/scripts/internal/lessons/variants"
)

// TestWrongThatDoesNotCompileIsReportedAsSuch proves a wrong solution whose build failed is
// judged broken with the compiler's words, and is never run: running the binary that was not
// built failed with "exec: no command", which hid why.
func TestWrongThatDoesNotCompileIsReportedAsSuch(t *testing.T) {
	b := compiled{wrong: variants.Patch{Name: "typo"}, err: errors.New("controller.go:12:2: undefined: lister"), applied: true}
	p := judgeQuickly(context.Background(), t.TempDir(), t.TempDir(), lessons.Lesson{Name: "99-demo"}, b, true, "the spec that caught it last")
	if p.verdict != broken || !strings.Contains(p.detail, "does not compile") || !strings.Contains(p.detail, "undefined: lister") {
		t.Fatalf("want broken, naming the compile error, got %v: %q", p.verdict, p.detail)
	}
}

// TestVerdictNamesTheQuickestCatchingSpec proves the spec recorded to run first is the failing
// spec that took least time, not the first in order nor a passing one.
func TestVerdictNamesTheQuickestCatchingSpec(t *testing.T) {
	spec := func(text string, passed bool, took time.Duration) specrun.Spec {
		return specrun.Spec{Text: text, Passed: passed, Failure: "failed: " + text, Report: types.SpecReport{RunTime: took}}
	}
	res := specrun.Result{Specs: []specrun.Spec{
		spec("slow failure", false, 30*time.Second),
		spec("quick pass", true, time.Millisecond),
		spec("quick failure", false, 2*time.Second),
	}}
	verdict, _, failure, quickest := verdictOf(res, 1)
	if verdict != caught || quickest != "quick failure" || failure != "failed: slow failure" {
		t.Fatalf("want caught, quickest %q and the first failure's message, got %v, %q, %q", "quick failure", verdict, quickest, failure)
	}
}

// TestCaughtByKeepsOnlyTheCaught proves make test-wrong's record: a caught wrong solution gets its
// quickest spec, one no longer caught loses its line, and a run of one wrong solution leaves the
// others' lines alone while a run of all forgets names that are gone.
func TestCaughtByKeepsOnlyTheCaught(t *testing.T) {
	l := lessons.Lesson{Number: "99", SolutionDir: t.TempDir()}
	if err := os.MkdirAll(variants.WrongDir(l), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := variants.WriteCaughtBy(l, map[string]string{"gone": "a spec", "kept": "its spec", "missed": "old spec"}); err != nil {
		t.Fatal(err)
	}
	proofOf := func(name, verdict, quickest string) proof {
		return proof{wrong: variants.Patch{Name: name}, verdict: verdict, quickest: quickest}
	}
	if err := recordCaughtBy(l, []proof{proofOf("missed", notCaught, "")}, false); err != nil {
		t.Fatal(err)
	}
	got, err := variants.CaughtBy(l)
	if err != nil || len(got) != 2 || got["kept"] != "its spec" || got["gone"] != "a spec" {
		t.Fatalf("after one wrong solution not caught: want gone and kept left, got %v (%v)", got, err)
	}
	if err := recordCaughtBy(l, []proof{proofOf("kept", caught, "a quicker spec"), proofOf("new", caught, "new spec")}, true); err != nil {
		t.Fatal(err)
	}
	got, err = variants.CaughtBy(l)
	if err != nil || len(got) != 2 || got["kept"] != "a quicker spec" || got["new"] != "new spec" {
		t.Fatalf("after a run of all: want kept and new only, got %v (%v)", got, err)
	}
	data, _ := os.ReadFile(filepath.Join(variants.WrongDir(l), variants.CaughtByFile))
	if !strings.HasPrefix(string(data), "# Written by make test") {
		t.Fatalf("the file should say where it comes from:\n%s", data)
	}
}
