package l10n

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Problem is one thing wrong with a translation (or the glossary), at a line of it (0: the file
// as a whole).
type Problem struct {
	File string
	Line int
	Text string
}

func (p Problem) String() string {
	if p.Line == 0 {
		return p.File + ": " + p.Text
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Text)
}

// Report is what Check found.
type Report struct {
	Translations []Translation
	Terms        int // the glossary's terms
	Problems     []Problem
}

// driftLines is how much of an English diff a drift problem shows: make test's output stays
// readable, and make l10n-diff shows the rest.
const driftLines = 60

// Check is the static check of make test: every translation is current with its English, has
// its structure, and uses the glossary's words. With no translation there is nothing to check.
func Check(ctx context.Context, root string) (Report, error) {
	var r Report
	var err error
	if r.Translations, err = Discover(root); err != nil || len(r.Translations) == 0 {
		return r, err
	}
	g, err := r.glossary(root)
	if err != nil {
		return r, err
	}
	for _, t := range r.Translations {
		if err := r.check(ctx, root, t, g); err != nil {
			return r, err
		}
	}
	return r, nil
}

// glossary reads the glossary and notes what is wrong with it; a missing glossary is one
// problem, and the glossary's rules then have no terms to apply.
func (r *Report) glossary(root string) (Glossary, error) {
	data, err := os.ReadFile(filepath.Join(root, GlossaryFile))
	if errors.Is(err, fs.ErrNotExist) {
		r.Problems = append(r.Problems, Problem{File: GlossaryFile, Text: "missing: the translations need it (issue 40: one word per term)"})
		return Glossary{}, nil
	} else if err != nil {
		return Glossary{}, err
	}
	g, problems := ParseGlossary(data)
	r.Terms = len(g.Terms)
	r.Problems = append(r.Problems, problems...)
	return g, nil
}

// check adds one translation's problems: its header, its drift, its structure, its words.
func (r *Report) check(ctx context.Context, root string, t Translation, g Glossary) error {
	if t.Problem != "" {
		r.Problems = append(r.Problems, Problem{File: t.Path, Text: t.Problem})
	}
	if _, err := os.Stat(filepath.Join(root, t.Source)); err != nil {
		return nil // no English to compare with: the problem above says so
	}
	if t.SHA256 != "" {
		d, err := FindDrift(ctx, root, t)
		if err != nil {
			return err
		}
		if d.Behind() {
			r.Problems = append(r.Problems, Problem{File: t.Path, Text: "behind its English: " + d.Explain(driftLines)})
		}
	}
	parity, err := Parity(root, t)
	if err != nil {
		return err
	}
	terms, err := g.Check(t, root)
	r.Problems = append(append(r.Problems, parity...), terms...)
	return err
}
