package specrun

import (
	"strings"
	"testing"
)

// TestBrieflyKeepsValuesAndDropsDumps proves the failure summary keeps the values Gomega
// compares (both of them, after a custom message), without their type annotations, shows a
// multi-line struct dump as {…}, and is cut by length.
func TestBrieflyKeepsValuesAndDropsDumps(t *testing.T) {
	cases := map[string]string{
		"Expected\n    <string>: /apis/v1/pods\nto equal\n    <string>: /api/v1/pods":                                                                                                                                                  "Expected /apis/v1/pods to equal /api/v1/pods",
		"Unexpected error:\n    <*errors.StatusError | 0xc000123>: \n    pods \"x\" not found\n    {\n        ErrStatus: {Code: 404},\n    }\noccurred":                                                                                "Unexpected error: pods \"x\" not found { ErrStatus: {Code: 404}, } occurred",
		"the label should stay\nExpected\n    <map[string]string | len:1>: {\n        \"app\": \"web\",\n    }\nto have {key: value}\n    <map[interface {}]interface {} | len:1>: {\n        <string>\"team\": <string>\"a\",\n    }": "the label should stay Expected { \"app\": \"web\", } to have {key: value} { \"team\": \"a\", }",
		"notes should name the kind\nExpected\n    <[]v1.Event | len:1, cap:1>: [\n        {\n            ObjectMeta: {\n                Name: \"a\",\n                Namespace: \"lesson10-abcde\",\n                UID: \"0f8fad5b-d9cb-469f-a165-70867728950e\",\n            },\n            Note: \"Created Deployment web\",\n        },\n    ]\nto have length 2": "notes should name the kind Expected [ {…} ] to have length 2",
		"the mapper should answer from its cache\nExpected\n    <[]string | len:0, cap:0>: []\nto equal\n    <[]string | len:1, cap:1>: [\"pods\"]": "the mapper should answer from its cache Expected [] to equal [\"pods\"]",
		"want NotFound; got nil\nExpected\n    <bool>: false\nto be true":                                                                           "want NotFound; got nil Expected false to be true",
	}
	for msg, want := range cases {
		if got := briefly(msg); got != want {
			t.Errorf("briefly(%q)\n got %q\nwant %q", msg, got, want)
		}
	}
	long := briefly("Expected\n" + strings.Repeat("x", 500))
	if r := []rune(long); len(r) != briefMax || !strings.HasSuffix(long, "…") {
		t.Errorf("a long message should be cut to %d runes ending in …, got %d: %q", briefMax, len(r), long)
	}
}
