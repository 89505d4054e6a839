package variants

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"workshop.local/scripts/internal/lessons"
)

// A wrong solution's signature is what it does to its exercise's specs: which fail and which
// pass when every spec of the exercise runs on it. make signatures measures each one twice and
// keeps it only when both runs agree. make check compares a learner's failing exercise with the
// signatures of its known mistakes: when exactly one matches, the learner can ask which mistake
// it is (make hint), in the words of that patch's header.

// SignaturesFile is the file in wrong/ that holds the lesson's signatures.
const SignaturesFile = "signatures.json"

// Signatures are one lesson's, as make signatures recorded them.
type Signatures struct {
	// Digest is SignaturesDigest as it was when they were recorded: the lesson's specs and
	// support files and its wrong solutions. make test fails when it no longer is.
	Digest string `json:"digest"`
	// Specs are every spec of each exercise (full texts, sorted), as the runs found them.
	Specs map[int][]string `json:"specs"`
	// Wrong holds each wrong solution's signature, by name.
	Wrong map[string]Signature `json:"wrong"`
	// Same maps each wrong solution its author declared a twin of another (Patch.SameAs) to that
	// other one. It is read from the patches, not recorded: a header line changes no signature.
	Same map[string]string `json:"-"`
}

// Signature is the specs of its exercise that a wrong solution fails (the others pass).
type Signature struct {
	Exercise int      `json:"exercise"`
	Failing  []string `json:"failing"` // full spec texts, sorted
	// Unstable names a wrong solution whose two runs did not fail the same specs: it is never
	// matched (a learner's failure could look like it by chance), and make signatures says so.
	Unstable bool `json:"unstable,omitempty"`
}

// ReadSignatures reads the lesson's SignaturesFile; ok is false when it has none yet.
func ReadSignatures(l lessons.Lesson) (s Signatures, ok bool, err error) {
	data, err := os.ReadFile(filepath.Join(WrongDir(l), SignaturesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Signatures{}, false, nil
	}
	if err != nil {
		return Signatures{}, false, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return Signatures{}, false, err
	}
	s.Same, err = Twins(l)
	return s, true, err
}

// Twins maps each wrong solution of the lesson that is the same mistake as another to it.
func Twins(l lessons.Lesson) (map[string]string, error) {
	list, err := Wrong(l)
	if err != nil {
		return nil, err
	}
	same := map[string]string{}
	for _, w := range list {
		if w.SameAs != "" && w.Problem == "" {
			same[w.Name] = w.SameAs
		}
	}
	return same, nil
}

// Mistake is the name a wrong solution is known by: its twin's when it has one (Same).
func (s Signatures) Mistake(name string) string {
	if twin, ok := s.Same[name]; ok {
		return twin
	}
	return name
}

// WriteSignatures writes s as the lesson's SignaturesFile, indented so that a diff reads.
func WriteSignatures(l lessons.Lesson, s Signatures) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(WrongDir(l), SignaturesFile), append(data, '\n'), 0o644)
}

// SignaturesDigest is the SHA-256 of what the signatures depend on: the lesson's spec and
// support files, and each wrong solution's name, exercise and diff, in order. A change to any
// of them may change which specs a mistake fails; a change to a header's words cannot.
func SignaturesDigest(root string, l lessons.Lesson) (string, error) {
	files, err := l.SupportFiles(root)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return "", err
		}
		digestPart(h, f, data)
	}
	wrong, err := Wrong(l)
	if err != nil {
		return "", err
	}
	for _, w := range wrong {
		data, err := os.ReadFile(w.Path)
		if err != nil {
			return "", err
		}
		diff := data[max(0, bytes.Index(data, []byte("\n--- "))):]
		digestPart(h, fmt.Sprintf("%s/%s exercise %d", w.Kind.Dir, w.Name, w.Exercise), diff)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// digestPart adds one named part to a digest, delimited so that no two sequences collide.
func digestPart(h hash.Hash, name string, data []byte) {
	h.Write([]byte(name + "\x00"))
	h.Write(data)
	h.Write([]byte{0})
}

// MinFailing is how many specs a signature must fail to be matched at all. Mistakes that fail
// one or two specs share those signatures with too many other mistakes, known or not: measured
// on the wrong solutions of lessons 01 to 09 (docs/benchmarks.md, "Naming the mistake"), each
// third held out and matched against the others' signatures, matching from one failing spec up
// named a wrong mistake for about 1 in 6 of them, from two up for 1 in 18, from three up for 1
// in 66 (the bar is 1 in 20).
const MinFailing = 3

// Match names the known mistakes whose signature is the learner's: the same specs of the
// exercise fail, at least MinFailing of them, and every other spec of it passes. failing and
// passing are the full texts of the learner's specs of that exercise. A spec set unlike the
// recorded one (specs added or renamed since) matches nothing, and neither does an unstable
// signature. Twins are one mistake, named once, by the name of the one the other points at.
func (s Signatures) Match(exercise int, failing, passing []string) []string {
	if len(failing) < MinFailing {
		return nil
	}
	all := slices.Sorted(slices.Values(append(slices.Clone(failing), passing...)))
	if !slices.Equal(all, s.Specs[exercise]) {
		return nil
	}
	failing = slices.Sorted(slices.Values(failing))
	var names []string
	for _, name := range slices.Sorted(maps.Keys(s.Wrong)) {
		w := s.Wrong[name]
		mistake := s.Mistake(name)
		if w.Exercise == exercise && !w.Unstable && slices.Equal(w.Failing, failing) && !slices.Contains(names, mistake) {
			names = append(names, mistake)
		}
	}
	slices.Sort(names)
	return names
}

// Kept says whether a measured signature can tell a mistake apart at all: not when nothing
// fails (not caught), nor when every spec of the exercise fails, as on the untouched starter.
func Kept(failing, all []string) bool {
	return len(failing) > 0 && len(failing) < len(all)
}
