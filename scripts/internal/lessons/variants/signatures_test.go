package variants

import (
	"slices"
	"testing"
)

// TestMatchNamesOnlyAnExactStableSignature proves a learner's failure matches a known mistake
// only when exactly the same specs of the same exercise fail and the others pass: a spec set
// that changed since the recording, an unstable signature, a superset of failures or another
// exercise match nothing, and mistakes that share a signature are all named.
func TestMatchNamesOnlyAnExactStableSignature(t *testing.T) {
	sigs := Signatures{
		Specs: map[int][]string{1: {"a", "b", "c"}, 2: {"d", "e"}},
		Wrong: map[string]Signature{
			"only-a":   {Exercise: 1, Failing: []string{"a"}},
			"also-a":   {Exercise: 1, Failing: []string{"a"}},
			"b-and-c":  {Exercise: 1, Failing: []string{"b", "c"}},
			"flaky-d":  {Exercise: 2, Failing: []string{"d"}, Unstable: true},
			"other-ex": {Exercise: 2, Failing: []string{"e"}},
		},
	}
	cases := []struct {
		name             string
		exercise         int
		failing, passing []string
		want             []string
	}{
		{"one signature", 1, []string{"c", "b"}, []string{"a"}, []string{"b-and-c"}},
		{"two mistakes, one signature", 1, []string{"a"}, []string{"b", "c"}, []string{"also-a", "only-a"}},
		{"more fail than any mistake", 1, []string{"a", "b"}, []string{"c"}, nil},
		{"a spec added since", 1, []string{"b", "c"}, []string{"a", "new"}, nil},
		{"unstable", 2, []string{"d"}, []string{"e"}, nil},
		{"another exercise's signature", 2, []string{"e"}, []string{"d"}, []string{"other-ex"}},
	}
	for _, c := range cases {
		if got := sigs.Match(c.exercise, c.failing, c.passing); !slices.Equal(got, c.want) {
			t.Errorf("%s: want %v, got %v", c.name, c.want, got)
		}
	}
	if Kept(nil, []string{"a"}) || Kept([]string{"a"}, []string{"a"}) || !Kept([]string{"a"}, []string{"a", "b"}) {
		t.Error("Kept: want a signature kept only when some but not all specs fail")
	}
}
