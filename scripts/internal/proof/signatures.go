package proof

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/variants"
)

// signatureRuns is how often make signatures runs each wrong solution: a signature is kept as
// stable only when every run failed the same specs.
const signatureRuns = 2

// Signatures is `make signatures LESSON=NN`: every wrong solution of the lesson, on every spec
// of its exercise (no first-failure stop, no spec tried first), signatureRuns times; it writes
// what each failed to wrong/signatures.json (variants.Signatures), says which mistakes the specs
// cannot tell apart and how the matcher does on them, and writes docs/mistakes.md again. It returns false when a wrong solution was not caught or did not
// fail the same specs each time.
func Signatures(ctx context.Context, scratch string, l lessons.Lesson) (bool, error) {
	list, err := variants.Wrong(l)
	if err != nil || len(list) == 0 {
		return false, errors.Join(err, fmt.Errorf("lesson %s has no wrong solutions to measure", l.Number))
	}
	if err := os.MkdirAll(filepath.Join(scratch, "logs"), 0o755); err != nil {
		return false, err
	}
	fmt.Printf("Measuring the signatures of lesson %s's %d wrong solutions: every spec of each one's exercise, %d times.\n", l.Name, len(list), signatureRuns)
	start := time.Now()
	runs := make([][]proof, signatureRuns)
	for i := range runs {
		runs[i], _ = proveWrong(ctx, scratch, l, list, false, nil, func(proof) {})
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		fmt.Printf("  run %d of %d done (%s)\n", i+1, signatureRuns, time.Since(start).Round(time.Second))
	}
	digest, err := variants.SignaturesDigest(l.Root(), l)
	if err != nil {
		return false, err
	}
	sigs, problems := signaturesOf(l, runs)
	sigs.Digest = digest
	if sigs.Same, err = variants.Twins(l); err != nil {
		return false, err
	}
	if err := variants.WriteSignatures(l, sigs); err != nil {
		return false, err
	}
	printSignatures(l, sigs, len(list), problems)
	// docs/mistakes.md notes each mistake's signature: write it now, not at the next make test.
	if _, err := WriteMistakes(l.Root()); err != nil {
		return false, err
	}
	return len(problems) == 0, nil
}

// signaturesOf turns the runs (each in the same order of wrong solutions) into signatures, and
// lists the wrong solutions that were not caught or failed other specs from run to run.
func signaturesOf(l lessons.Lesson, runs [][]proof) (variants.Signatures, []string) {
	sigs := variants.Signatures{Specs: map[int][]string{}, Wrong: map[string]variants.Signature{}}
	var problems []string
	for i, first := range runs[0] {
		name, exercise := first.wrong.Name, first.wrong.Exercise
		sig := variants.Signature{Exercise: exercise, Failing: slices.Sorted(slices.Values(first.failing))}
		all := slices.Sorted(slices.Values(append(slices.Clone(first.failing), first.passing...)))
		for _, run := range runs {
			p := run[i]
			if p.verdict != caught {
				problems = append(problems, fmt.Sprintf("%s: %s in one run (%s): make test-wrong LESSON=%s WRONG=%s", name, p.verdict, p.detail, l.Number, name))
				sig.Unstable = true
			} else if !slices.Equal(slices.Sorted(slices.Values(p.failing)), sig.Failing) {
				problems = append(problems, fmt.Sprintf("%s: its runs failed different specs (%d, then %d): a spec it meets depends on timing", name, len(sig.Failing), len(p.failing)))
				sig.Unstable = true
			}
		}
		if known, ok := sigs.Specs[exercise]; ok && !slices.Equal(known, all) {
			problems = append(problems, fmt.Sprintf("%s: exercise %d ran %d specs for it and %d for another wrong solution", name, exercise, len(all), len(known)))
			sig.Unstable = true
		}
		sigs.Specs[exercise] = all
		if !variants.Kept(sig.Failing, all) {
			continue // like the starter (every spec fails) or not caught: tells nothing apart
		}
		sigs.Wrong[name] = sig
	}
	return sigs, problems
}

// printSignatures says what was written: how many signatures, which are shared by several
// mistakes (the specs cannot tell those apart: a spec may be missing), and the problems.
func printSignatures(l lessons.Lesson, sigs variants.Signatures, total int, problems []string) {
	shared := sharedSignatures(sigs)
	stable := 0
	for _, s := range sigs.Wrong {
		if !s.Unstable {
			stable++
		}
	}
	fmt.Printf("\nwrote solutions/%s/wrong/%s: %d signatures, %d stable, %d shared by more than one mistake\n",
		l.Name, variants.SignaturesFile, len(sigs.Wrong), stable, len(shared))
	for _, names := range shared {
		fmt.Printf("  the same specs fail for %s: the specs cannot tell these apart\n", strings.Join(names, ", "))
	}
	for _, p := range problems {
		fmt.Println("  " + p)
	}
	known, heldOut := validate(sigs, total)
	fmt.Printf("the matcher, on these mistakes as a learner's check shows them: %s\n", known)
	fmt.Printf("  each third held out, matched against the other two thirds: %s\n", heldOut)
}

// MatcherReport prints, for every lesson with recorded signatures, what the matcher does on its
// wrong solutions (validate): a table for docs/benchmarks.md, from the record, with no run.
func MatcherReport(root string) error {
	all, err := lessons.Discover(root)
	if err != nil {
		return err
	}
	fmt.Println("the matcher on the recorded signatures (each third held out in turn, matched against the rest):")
	for _, l := range all {
		sigs, ok, err := variants.ReadSignatures(l)
		if err != nil {
			return fmt.Errorf("solutions/%s/wrong/%s: %w", l.Name, variants.SignaturesFile, err)
		}
		if !ok {
			continue
		}
		list, err := variants.Wrong(l)
		if err != nil {
			return err
		}
		known, heldOut := validate(sigs, len(list))
		fmt.Printf("  lesson %s, %d wrong solutions, %d twins: as recorded %s; held out %s\n", l.Number, len(list), len(sigs.Same), known, heldOut)
	}
	return nil
}

// sharedSignatures groups the stable wrong solutions that fail exactly the same specs and are
// not declared the same mistake (twins are one mistake: nothing to tell apart).
func sharedSignatures(sigs variants.Signatures) [][]string {
	groups := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(sigs.Wrong)) {
		s := sigs.Wrong[name]
		if s.Unstable {
			continue
		}
		key := fmt.Sprintf("%d\x00%s", s.Exercise, strings.Join(s.Failing, "\x00"))
		if mistake := sigs.Mistake(name); !slices.Contains(groups[key], mistake) {
			groups[key] = append(groups[key], mistake)
		}
	}
	var shared [][]string
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		if len(groups[key]) > 1 {
			shared = append(shared, groups[key])
		}
	}
	return shared
}

// signaturesCurrent is the static check that each lesson's recorded signatures were measured
// on its specs and wrong solutions as they are now. A lesson without any is named, not failed:
// make check then names no mistake for it.
func (t *tester) signaturesCurrent(context.Context) (string, error) {
	var stale, measured, missing []string
	for _, l := range t.lessons {
		sigs, ok, err := variants.ReadSignatures(l)
		if err != nil {
			return "", fmt.Errorf("solutions/%s/wrong/%s: %w", l.Name, variants.SignaturesFile, err)
		}
		if !ok {
			missing = append(missing, l.Number)
			continue
		}
		digest, err := variants.SignaturesDigest(t.root, l)
		if err != nil {
			return "", err
		}
		if digest != sigs.Digest {
			stale = append(stale, fmt.Sprintf("solutions/%s/wrong/%s was measured on other specs or wrong solutions: make signatures LESSON=%s, and commit it", l.Name, variants.SignaturesFile, l.Number))
		}
		measured = append(measured, l.Number)
	}
	if len(stale) > 0 {
		return "", errors.New(strings.Join(stale, "\n"))
	}
	summary := fmt.Sprintf("lessons %s measured", strings.Join(measured, ", "))
	if len(measured) == 0 {
		summary = "no lesson measured"
	}
	if len(missing) > 0 {
		summary += fmt.Sprintf("; none yet for %s (make signatures LESSON=NN)", strings.Join(missing, ", "))
	}
	return summary, nil
}

// accuracy is what the matcher does with wrong solutions run as a learner would run them: named
// (the right mistake, alone), wrongly named (another mistake), or silent (no match, or several).
type accuracy struct{ named, wrong, silent int }

func (a accuracy) String() string {
	return fmt.Sprintf("%d named, %d named wrongly, %d silent", a.named, a.wrong, a.silent)
}

// count scores one run whose mistake is want (the name it is known by: its twin's, if any).
func (a *accuracy) count(want string, got []string) {
	switch {
	case len(got) != 1:
		a.silent++
	case got[0] == want:
		a.named++
	default:
		a.wrong++
	}
}

// validate measures the matcher on the lesson's total wrong solutions, each failing the specs its
// signature records (the outcome of a learner's check with that mistake): known, against every
// signature; heldOut, against the signatures of the other two thirds only (in name order, every
// third one held out in turn), as a mistake nobody recorded would meet them. A held-out mistake
// is named rightly only through its twin (the same mistake, written twice and declared so, with
// the twin among the others); heldOut.wrong is how often the matcher would name a wrong one.
func validate(sigs variants.Signatures, total int) (known, heldOut accuracy) {
	// A wrong solution whose signature was not kept (the starter's, or not caught) matches
	// nothing: silent, both ways.
	known.silent, heldOut.silent = total-len(sigs.Wrong), total-len(sigs.Wrong)
	names := slices.Sorted(maps.Keys(sigs.Wrong))
	for i, name := range names {
		s := sigs.Wrong[name]
		failing, passing := outcome(sigs, s)
		known.count(sigs.Mistake(name), sigs.Match(s.Exercise, failing, passing))
		training := variants.Signatures{Specs: sigs.Specs, Same: sigs.Same, Wrong: map[string]variants.Signature{}}
		for j, other := range names {
			if j%3 != i%3 {
				training.Wrong[other] = sigs.Wrong[other]
			}
		}
		heldOut.count(sigs.Mistake(name), training.Match(s.Exercise, failing, passing))
	}
	return known, heldOut
}

// outcome is the check a learner with the mistake of s would see: its failing specs fail, the
// rest of the exercise passes.
func outcome(sigs variants.Signatures, s variants.Signature) (failing, passing []string) {
	for _, spec := range sigs.Specs[s.Exercise] {
		if slices.Contains(s.Failing, spec) {
			failing = append(failing, spec)
		} else {
			passing = append(passing, spec)
		}
	}
	return failing, passing
}

// firstNamed is the first wrong solution, by name, that its own recorded signature names alone.
func firstNamed(l lessons.Lesson, sigs variants.Signatures) (variants.Patch, bool, error) {
	list, err := variants.Wrong(l)
	if err != nil {
		return variants.Patch{}, false, err
	}
	for _, w := range list {
		s, ok := sigs.Wrong[w.Name]
		if !ok || w.Problem != "" {
			continue
		}
		failing, passing := outcome(sigs, s)
		if slices.Equal(sigs.Match(s.Exercise, failing, passing), []string{w.Name}) {
			return w, true, nil
		}
	}
	return variants.Patch{}, false, nil
}
