package cluster

import (
	"errors"
	"testing"

	"workshop.local/scripts/internal/cluster/kind"
)

// facts is a Probe with fixed answers.
type facts struct {
	existing     string
	active       bool
	engine       kind.Engine
	imagePresent bool
	pullErr      error
	localInstead bool
}

func (f facts) Existing() string              { return f.existing }
func (f facts) Active(string) bool            { return f.active }
func (f facts) Engine() kind.Engine           { return f.engine }
func (f facts) ImagePresent() bool            { return f.imagePresent }
func (f facts) Pullable() error               { return f.pullErr }
func (f facts) LocalInstead(kind.Engine) bool { return f.localInstead }

func TestDecide(t *testing.T) {
	answers := kind.Engine{Name: "docker", Installed: true, Answers: true}
	stopped := kind.Engine{Name: "docker", Installed: true, Detail: "daemon not running"}
	noPull := errors.New("no network")
	cases := []struct {
		name   string
		wanted string
		facts  facts
		want   string
		fails  bool
	}{
		{"auto, image here", "", facts{engine: answers, imagePresent: true}, Kind, false},
		{"auto, image pullable", "auto", facts{engine: answers}, Kind, false},
		{"auto, image cannot be pulled", "", facts{engine: answers, pullErr: noPull}, Local, false},
		{"auto, engine stopped, no answer", "", facts{engine: stopped}, "", true},
		{"auto, engine stopped, learner says local", "", facts{engine: stopped, localInstead: true}, Local, false},
		{"auto, no engine", "", facts{}, Local, false},
		{"auto keeps the workspace's cluster", "AUTO", facts{existing: Local, engine: answers, imagePresent: true}, Local, false},
		{"explicit local", "local", facts{engine: answers}, Local, false},
		{"explicit kind while local runs", "kind", facts{existing: Local, active: true}, "", true},
		{"explicit kind after local stopped", "kind", facts{existing: Local}, Kind, false},
		{"unknown", "minikube", facts{}, "", true},
	}
	for _, tc := range cases {
		runtime, why, err := Decide(tc.wanted, tc.facts)
		if (err != nil) != tc.fails || runtime != tc.want || (err == nil && why == "") {
			t.Errorf("%s: Decide(%q) = %q, %q, %v", tc.name, tc.wanted, runtime, why, err)
		}
	}
}
