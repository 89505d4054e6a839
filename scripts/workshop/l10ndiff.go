package main

import (
	"context"
	"fmt"
	"io"
	"os"

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
// when r names none), then a count.
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
