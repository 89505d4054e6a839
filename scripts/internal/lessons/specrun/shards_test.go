package specrun

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// fakeSuite is a stand-in for a compiled lesson: a script that writes a Ginkgo JSON report
// holding one failed spec for the exercise its label filter names (none for any other filter),
// and logs the filter it was given.
func fakeSuite(t *testing.T) string {
	t.Helper()
	report := func(n string) string {
		sr := types.SpecReport{
			LeafNodeType: types.NodeTypeIt, State: types.SpecStateFailed, LeafNodeText: "spec " + n,
			ContainerHierarchyTexts: []string{"Exercise " + n}, LeafNodeLabels: []string{"exercise-" + n},
		}
		data, err := json.Marshal([]types.Report{{SpecReports: types.SpecReports{sr}}})
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	script := "#!/bin/sh\nfor a; do case $a in -ginkgo.json-report=*) out=${a#*=};; -ginkgo.label-filter=*) filter=${a#*=};; esac; done\n" +
		"echo \"ran with $filter\"\ncase $filter in\n" +
		"exercise-1) echo '" + report("1") + "' > $out;;\n" +
		"exercise-2) echo '" + report("2") + "' > $out;;\n" +
		"*) echo '[{}]' > $out;;\nesac\nexit 1\n"
	path := filepath.Join(t.TempDir(), "demo.test")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExecuteByExerciseRunsOneProcessPerExercise proves each exercise runs under its own label
// filter, the specs of no listed exercise under the filter that excludes them all, and the
// results and outputs come back merged in exercise order.
func TestExecuteByExerciseRunsOneProcessPerExercise(t *testing.T) {
	var out bytes.Buffer
	l := fakeLesson(t)
	res, err := ExecuteByExercise(context.Background(), Run{Lesson: l, ReportDir: t.TempDir(), Output: &out}, fakeSuite(t), []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Exercises()
	if len(got) != 2 || got[0].Number != 1 || got[1].Number != 2 || got[0].Total != 1 || got[0].Passed != 0 {
		t.Fatalf("want exercises 1 and 2 with one failed spec each, got %+v", got)
	}
	log := out.String()
	for _, want := range []string{"ran with exercise-1", "ran with exercise-2", "ran with !exercise-1 && !exercise-2"} {
		if !strings.Contains(log, want) {
			t.Errorf("the output should hold %q, got:\n%s", want, log)
		}
	}
	if strings.Index(log, "ran with exercise-1") > strings.Index(log, "ran with exercise-2") {
		t.Errorf("outputs should come in exercise order, got:\n%s", log)
	}
}

// TestAnAloneExerciseRunsAfterTheOthers proves an exercise lesson.yaml lists as alone starts
// only once every other shard has ended (lesson 11's exercise 5 uninstalls the shared CRD).
func TestAnAloneExerciseRunsAfterTheOthers(t *testing.T) {
	events := filepath.Join(t.TempDir(), "events")
	t.Setenv("SHARD_EVENTS", events)
	script := "#!/bin/sh\nfor a; do case $a in -ginkgo.json-report=*) out=${a#*=};; -ginkgo.label-filter=*) filter=${a#*=};; esac; done\n" +
		"echo \"start $filter\" >> \"$SHARD_EVENTS\"\nsleep 0.3\necho \"end $filter\" >> \"$SHARD_EVENTS\"\necho '[{}]' > $out\n"
	binary := filepath.Join(t.TempDir(), "demo.test")
	if err := os.WriteFile(binary, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	l := fakeLesson(t)
	l.Manifest.Alone = []int{1}
	if _, err := ExecuteByExercise(context.Background(), Run{Lesson: l, ReportDir: t.TempDir(), Output: &bytes.Buffer{}}, binary, []int{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(events)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 8 || lines[len(lines)-2] != "start exercise-1" || lines[len(lines)-1] != "end exercise-1" {
		t.Fatalf("exercise 1 should start after the three other shards ended, got:\n%s", data)
	}
}
