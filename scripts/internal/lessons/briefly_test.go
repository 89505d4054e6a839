package lessons

import "testing"

// TestBrieflyKeepsValuesAndDropsDumps proves the failure summary keeps the values Gomega
// compares, without their type annotations, and leaves out struct dumps.
func TestBrieflyKeepsValuesAndDropsDumps(t *testing.T) {
	cases := map[string]string{
		"Expected\n    <string>: /apis/v1/pods\nto equal\n    <string>: /api/v1/pods":                                                                   "Expected /apis/v1/pods to equal /api/v1/pods",
		"Unexpected error:\n    <*errors.StatusError | 0xc000123>: \n    pods \"x\" not found\n    {\n        ErrStatus: {Code: 404},\n    }\noccurred": "Unexpected error: pods \"x\" not found occurred",
		"want NotFound; got nil\nExpected\n    <bool>: false\nto be true":                                                                               "want NotFound; got nil Expected false to be true",
	}
	for msg, want := range cases {
		if got := briefly(msg); got != want {
			t.Errorf("briefly(%q)\n got %q\nwant %q", msg, got, want)
		}
	}
}
