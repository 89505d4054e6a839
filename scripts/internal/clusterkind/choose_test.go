package clusterkind

import (
	"testing"

	"workshop.local/scripts/internal/kindcluster"
)

func TestDecide(t *testing.T) {
	answers := kindcluster.Engine{Name: "docker", Installed: true, Answers: true}
	stopped := kindcluster.Engine{Name: "docker", Installed: true, Detail: "daemon not running"}
	cases := []struct {
		wanted, existing string
		engine           kindcluster.Engine
		kind             string
		fails            bool
	}{
		{"", "", answers, Kind, false},
		{"auto", "", stopped, Local, false},
		{"AUTO", "local", answers, Local, false}, // auto keeps the workspace's cluster
		{"local", "", answers, Local, false},
		{"kind", "local", answers, "", true},
		{"minikube", "", answers, "", true},
	}
	for _, tc := range cases {
		kind, why, err := Decide(tc.wanted, tc.existing, tc.engine)
		if (err != nil) != tc.fails || kind != tc.kind || (err == nil && why == "") {
			t.Errorf("Decide(%q, %q, answers=%v) = %q, %q, %v", tc.wanted, tc.existing, tc.engine.Answers, kind, why, err)
		}
	}
	if NeedsEngine("local", "") || NeedsEngine("auto", "local") || !NeedsEngine("", "") || !NeedsEngine("auto", "kind") {
		t.Error("NeedsEngine probes when it need not, or skips when it must")
	}
}
