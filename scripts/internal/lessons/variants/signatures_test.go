package variants

import (
	"slices"
	"testing"
)

// TestMatchNamesOnlyAnExactStableSignature proves a learner's failure matches a known mistake
// only when exactly the same specs of the same exercise fail (at least MinFailing of them) and
// the others pass: a spec set that changed since the recording, an unstable signature, a
// superset of failures, a single failing spec or another exercise match nothing, and mistakes
// that share a signature are all named.
func TestMatchNamesOnlyAnExactStableSignature(t *testing.T) {
	sigs := Signatures{
		Specs: map[int][]string{1: {"a", "b", "c", "d", "e"}, 2: {"f", "g", "h", "i"}},
		Wrong: map[string]Signature{
			"a-to-c":   {Exercise: 1, Failing: []string{"a", "b", "c"}},
			"also-ac":  {Exercise: 1, Failing: []string{"a", "b", "c"}},
			"c-to-e":   {Exercise: 1, Failing: []string{"c", "d", "e"}},
			"d-and-e":  {Exercise: 1, Failing: []string{"d", "e"}},
			"flaky-fh": {Exercise: 2, Failing: []string{"f", "g", "h"}, Unstable: true},
			"g-to-i":   {Exercise: 2, Failing: []string{"g", "h", "i"}},
		},
	}
	cases := []struct {
		name             string
		exercise         int
		failing, passing []string
		want             []string
	}{
		{"one signature", 1, []string{"e", "d", "c"}, []string{"a", "b"}, []string{"c-to-e"}},
		{"two mistakes, one signature", 1, []string{"a", "b", "c"}, []string{"d", "e"}, []string{"a-to-c", "also-ac"}},
		{"more fail than any mistake", 1, []string{"a", "b", "c", "d"}, []string{"e"}, nil},
		{"fewer than MinFailing say too little", 1, []string{"d", "e"}, []string{"a", "b", "c"}, nil},
		{"a spec added since", 1, []string{"c", "d", "e"}, []string{"a", "b", "new"}, nil},
		{"unstable", 2, []string{"f", "g", "h"}, []string{"i"}, nil},
		{"another exercise's signature", 2, []string{"g", "h", "i"}, []string{"f"}, []string{"g-to-i"}},
	}
	for _, c := range cases {
		if got := sigs.Match(c.exercise, c.failing, c.passing); !slices.Equal(got, c.want) {
			t.Errorf("%s: want %v, got %v", c.name, c.want, got)
		}
	}
	// Twins, declared the same mistake, are named once, by the name the other points at; a twin
	// beside another mistake is still two mistakes.
	sigs.Same = map[string]string{"also-ac": "a-to-c"}
	if got := sigs.Match(1, []string{"a", "b", "c"}, []string{"d", "e"}); !slices.Equal(got, []string{"a-to-c"}) {
		t.Errorf("twins: want the one mistake a-to-c, got %v", got)
	}
	sigs.Same = map[string]string{"a-to-c": "also-ac"}
	if got := sigs.Match(1, []string{"a", "b", "c"}, []string{"d", "e"}); !slices.Equal(got, []string{"also-ac"}) {
		t.Errorf("twins, the other way: want the one mistake also-ac, got %v", got)
	}
	sigs.Wrong["third-ac"] = Signature{Exercise: 1, Failing: []string{"a", "b", "c"}}
	if got := sigs.Match(1, []string{"a", "b", "c"}, []string{"d", "e"}); !slices.Equal(got, []string{"also-ac", "third-ac"}) {
		t.Errorf("twins beside another mistake: want also-ac and third-ac, got %v", got)
	}
	if Kept(nil, []string{"a"}) || Kept([]string{"a"}, []string{"a"}) || !Kept([]string{"a"}, []string{"a", "b"}) {
		t.Error("Kept: want a signature kept only when some but not all specs fail")
	}
}
