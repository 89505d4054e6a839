package proof

import (
	"slices"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/variants"
)

// TestSignaturesKeepOnlyWhatTellsMistakesApart proves that a signature is kept when both runs
// failed the same specs, marked unstable when they did not, left out when it is the starter's
// (every spec fails), and that mistakes failing the same specs are named as indistinguishable.
func TestSignaturesKeepOnlyWhatTellsMistakesApart(t *testing.T) {
	specs := []string{"a", "b", "c"}
	run := func(name string, failing ...string) proof {
		var passing []string
		for _, s := range specs {
			if !slices.Contains(failing, s) {
				passing = append(passing, s)
			}
		}
		return proof{wrong: variants.Patch{Name: name, Exercise: 1}, verdict: caught, failing: failing, passing: passing}
	}
	first := []proof{run("steady", "a"), run("twin", "a"), run("flaky", "b"), run("like-starter", "a", "b", "c")}
	second := []proof{run("steady", "a"), run("twin", "a"), run("flaky", "b", "c"), run("like-starter", "c", "b", "a")}
	sigs, problems := signaturesOf(lessons.Lesson{Number: "01"}, [][]proof{first, second})

	if got := sigs.Wrong["steady"]; got.Unstable || !slices.Equal(got.Failing, []string{"a"}) {
		t.Errorf("steady: want a stable signature failing a, got %+v", got)
	}
	if !sigs.Wrong["flaky"].Unstable {
		t.Errorf("flaky failed other specs in its second run: want it unstable, got %+v", sigs.Wrong["flaky"])
	}
	if _, kept := sigs.Wrong["like-starter"]; kept {
		t.Error("like-starter fails every spec, as the starter does: it tells nothing apart and should not be kept")
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "flaky") {
		t.Errorf("want one problem, naming flaky, got %q", problems)
	}
	if shared := sharedSignatures(sigs); len(shared) != 1 || !slices.Equal(shared[0], []string{"steady", "twin"}) {
		t.Errorf("want steady and twin named as failing the same specs, got %v", shared)
	}
	if !slices.Equal(sigs.Specs[1], specs) {
		t.Errorf("want exercise 1's specs recorded as %v, got %v", specs, sigs.Specs[1])
	}
}

// TestValidateCountsRightWrongAndSilent proves the accuracy figures: a mistake with a signature
// of its own is named, two mistakes sharing one are met with silence, and a held-out mistake
// whose signature another recorded mistake has is counted as named wrongly.
func TestValidateCountsRightWrongAndSilent(t *testing.T) {
	sigs := variants.Signatures{
		Specs: map[int][]string{1: {"a", "b", "c", "d", "e"}},
		Wrong: map[string]variants.Signature{
			"a1": {Exercise: 1, Failing: []string{"a", "b", "c"}}, // held out with d1 (third 0)
			"a2": {Exercise: 1, Failing: []string{"a", "b", "c"}}, // third 1
			"b1": {Exercise: 1, Failing: []string{"b", "c", "d"}}, // third 2
			"d1": {Exercise: 1, Failing: []string{"c", "d", "e"}}, // third 0
		},
	}
	known, heldOut := validate(sigs, 5) // and one wrong solution whose signature was not kept
	if known != (accuracy{named: 2, silent: 3}) {
		t.Errorf("known: want b1 and d1 named, a1, a2 and the one not kept silent, got %s", known)
	}
	if heldOut != (accuracy{wrong: 2, silent: 3}) {
		t.Errorf("held out: want a1 and a2 each named as the other, b1 and d1 silent, got %s", heldOut)
	}
	// Declared twins, a1 and a2 are one mistake: named when both are known, and each held out is
	// named rightly by the other.
	sigs.Same = map[string]string{"a2": "a1"}
	known, heldOut = validate(sigs, 5)
	if known != (accuracy{named: 4, silent: 1}) || heldOut != (accuracy{named: 2, silent: 3}) {
		t.Errorf("twins: want all four named as known and a1, a2 named held out, got %s; %s", known, heldOut)
	}
}
