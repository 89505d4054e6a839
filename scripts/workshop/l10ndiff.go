package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"workshop.local/scripts/internal/l10n"
)

// l10nDiffCommand is make l10n-diff [LESSON=NN]: whether each translation (the lesson's, or all)
// is current with its English and, when it is not, the English diff since it was translated:
// exactly what a translator has to carry over. make test fails on the same translations; this
// shows them whole. It is a listing, not a check: it exits 0 either way.
func l10nDiffCommand() *cobra.Command {
	return lessonCommand{
		use: "l10n-diff", make: "l10n-diff",
		short: "Translators: whether each zh-CN translation (of LESSON, or all) is current, and the English diff since",
		run: func(cmd *cobra.Command, r resolved) (bool, error) {
			return true, printTranslationDrift(cmd.Context(), os.Stdout, r)
		},
	}.command(nil)
}

// printTranslationDrift writes one paragraph per translation of r's lesson (every translation
// when r names none), then a count, then what make test's check finds in them.
func printTranslationDrift(ctx context.Context, w io.Writer, r resolved) error {
	all, err := l10n.Discover(r.root)
	if err != nil {
		return err
	}
	behind, shown := 0, 0
	for _, t := range all {
		if r.lesson.Name != "" && t.Lesson() != r.lesson.Name {
			continue
		}
		shown++
		late, err := printDrift(ctx, w, r.root, t)
		if err != nil {
			return err
		}
		if late {
			behind++
		}
	}
	if shown == 0 {
		fmt.Fprintln(w, "No translations yet"+inLesson(r)+".")
		return nil
	}
	fmt.Fprintf(w, "\n%d %s%s: %d current, %d to bring up to date.\n", shown, plural(shown, "translation"), inLesson(r), shown-behind, behind)
	return printTranslationProblems(ctx, w, r)
}

// printTranslationProblems writes what make test's translation check finds in r's lesson (or
// everywhere): structure that differs from the English, words the glossary does not use. A
// translator sees them here without running make test.
func printTranslationProblems(ctx context.Context, w io.Writer, r resolved) error {
	report, err := l10n.Check(ctx, r.root)
	if err != nil {
		return err
	}
	shown := map[string]bool{} // a header's problem, printed with its translation above
	for _, t := range report.Translations {
		shown[t.Path+": "+t.Problem] = true
	}
	var found []string
	for _, p := range report.Problems {
		inLesson := r.lesson.Name == "" || strings.HasPrefix(filepath.ToSlash(p.File), "lessons/"+r.lesson.Name+"/")
		if inLesson && !shown[p.String()] && !strings.HasPrefix(p.Text, "behind its English") {
			found = append(found, p.String())
		}
	}
	if len(found) == 0 {
		fmt.Fprintln(w, "make test's translation check finds nothing else to fix"+inLesson(r)+".")
		return nil
	}
	fmt.Fprintf(w, "make test's translation check finds %d %s to fix%s:\n", len(found), plural(len(found), "problem"), inLesson(r))
	for _, line := range found {
		fmt.Fprintln(w, "  "+line)
	}
	return nil
}

// printDrift writes how one translation stands, and says whether it needs work.
func printDrift(ctx context.Context, w io.Writer, root string, t l10n.Translation) (bool, error) {
	if t.Problem != "" {
		fmt.Fprintf(w, "%s: %s\n", t.Path, t.Problem)
		return true, nil
	}
	d, err := l10n.FindDrift(ctx, root, t)
	if err != nil {
		return false, err
	}
	if !d.Behind() {
		fmt.Fprintf(w, "%s: current with %s\n", t.Path, t.Source)
		return false, nil
	}
	fmt.Fprintf(w, "%s: behind. %s\n", t.Path, d.Explain(0))
	return true, nil
}

func inLesson(r resolved) string {
	if r.lesson.Name == "" {
		return ""
	}
	return " in lessons/" + r.lesson.Name
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
