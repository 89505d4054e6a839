package l10n

import (
	"reflect"
	"testing"
)

// GitHub's anchors keep letters of every script, digits, - and _; they drop punctuation,
// full-width included, and number repeats.
func TestAnchors(t *testing.T) {
	for heading, want := range map[string]string{
		"Exercise 1: `ParseGVK` (parse.go)": "exercise-1-parsegvk-parsego",
		"练习 1：`ParseGVK`（parse.go）":         "练习-1parsegvkparsego",
		"From GVK to GVR: the RESTMapper":   "from-gvk-to-gvr-the-restmapper",
		"Lesson 01: GVK and GVR — names":    "lesson-01-gvk-and-gvr--names",
		"A [link](x.md) and <b>html</b>":    "a-link-and-html",
		"owner_refs, 属主引用、终结器":              "owner_refs-属主引用终结器",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
	d := parseDoc("x.md", []byte("# 提示\n\n## 练习 1\n\n## 练习 1\n\n```md\n## 练习 2\n```\n\n<a id=\"hand-made\"></a>\n\n## 练习 1-1\n"))
	want := map[string]bool{"提示": true, "练习-1": true, "练习-1-1": true, "练习-1-1-1": true, "hand-made": true}
	if got := d.anchors(); !reflect.DeepEqual(got, want) {
		t.Errorf("anchors %v, want %v", got, want)
	}
}

// Code spans are found as CommonMark finds them: across a line end, with longer backtick runs,
// never from an unclosed run, and never inside a code block.
func TestCodeSpans(t *testing.T) {
	d := parseDoc("x.md", []byte("Run `make check\nLESSON=01`, then ``a ` b`` and `x`.\nA lone ` stays.\n\n```sh\n`not a span`\n```\n# `make hint`\n\n- run `make manifests\n  generate` in a list item\n"))
	want := []span{{1, "make check LESSON=01"}, {2, "a ` b"}, {2, "x"}, {8, "make hint"}, {10, "make manifests generate"}}
	if !reflect.DeepEqual(d.spans, want) {
		t.Errorf("spans %+v, want %+v", d.spans, want)
	}
	if d.plain[0] != "Run            " || d.plain[2] != "A lone ` stays." || d.plain[5] != "" {
		t.Errorf("plain lines %q", d.plain)
	}
}

// A diagram's structure is its kind, ids and edges; labels of every form are no part of it.
func TestMermaidShape(t *testing.T) {
	got := parseMermaid(`flowchart TD
    make["Makefile<br/>(make check)"] -.-> ws["scripts/workshop"]
    ws --> loop["internal/loop"] & proof[(proof)]
    lessons -.->|"go test -c"| suite{"a lesson's specs"}
    a -- some words --> b
    subgraph group [a group]
    c:::warm --- d
    end
    style a fill:#f9f
    %% a comment --> nothing`)
	want := shape{
		kind:  "flowchart TD",
		ids:   []string{"a", "b", "c", "d", "group", "lessons", "loop", "make", "proof", "suite", "ws"},
		edges: []string{"a --> b", "c --- d", "lessons -.-> suite", "make -.-> ws", "ws --> loop", "ws --> proof"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// A sequence diagram's structure is its participants and who sends to whom with which arrow;
// aliases, message texts and notes are labels.
func TestSequenceShape(t *testing.T) {
	got := parseMermaid(`sequenceDiagram
    participant C as client (kubectl, client-go)
    participant A as kube-apiserver
    C->>A: POST /apis/<group>/v1/namespaces/ns/buckets
    Note over A: authentication, authorization
    A-->>C: 201 Created: done`)
	want := shape{kind: "sequenceDiagram", ids: []string{"A", "C"}, edges: []string{"A -->> C", "C ->> A"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}
