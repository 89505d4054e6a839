package l10n

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// Drift is how a translation stands against its English as the English is now.
type Drift struct {
	Translation
	Current string // the sha256 of the English file now
	// Base is the commit whose English has the header's sha256: the text the translation was made
	// from ("" when no commit in this clone's history has it).
	Base string
	Diff string // git diff from Base to the English file now: what to carry over
}

// Behind says whether the English changed since the translation was made.
func (d Drift) Behind() bool { return d.Current != d.SHA256 }

// FindDrift compares a translation's header with its English file, and when they differ, finds
// the English it was translated from in git history and the diff since then. The translation
// must have a valid header (t.Problem == "").
func FindDrift(ctx context.Context, root string, t Translation) (Drift, error) {
	d := Drift{Translation: t}
	var err error
	if d.Current, err = fileSHA256(filepath.Join(root, t.Source)); err != nil || !d.Behind() {
		return d, err
	}
	if d.Base = findVersion(ctx, root, t.Source, t.SHA256); d.Base == "" {
		return d, nil
	}
	diff, err := git(ctx, root, "diff", "--no-color", "--no-ext-diff", d.Base, "--", t.Source)
	d.Diff = string(diff)
	return d, err
}

// findVersion is the newest commit in which path's bytes have the given sha256, or "" when none
// has (no git, a shallow clone, a hash edited by hand). Versions are compared as they are checked
// out (git cat-file --filters applies the same line-end conversion as a checkout), since the
// header's hash is of the file a translator read.
func findVersion(ctx context.Context, root, path, sum string) string {
	commits, err := git(ctx, root, "log", "--format=%H", "--", path)
	if err != nil {
		return ""
	}
	for _, c := range strings.Fields(string(commits)) {
		data, err := git(ctx, root, "cat-file", "--filters", c+":"+path)
		if err == nil && bytesSHA256(data) == sum {
			return c
		}
	}
	return ""
}

// git runs git in root and returns its standard output; its error carries git's own message.
func git(ctx context.Context, root string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// Explain says what a translation that is behind must do, with the English diff since its
// translation, cut after maxLines lines (0: all of it).
func (d Drift) Explain(maxLines int) string {
	then := fmt.Sprintf("then write sha256=%s into its first line", d.Current)
	if d.Base == "" {
		return fmt.Sprintf("%s has changed since %s was translated, and no version of it in this clone's git history "+
			"has the header's sha256 %s (a shallow clone: git fetch --unshallow; or a hash edited by hand). "+
			"Compare the translation with the English as it is now, sentence by sentence, %s.",
			d.Source, d.Path, d.SHA256, then)
	}
	return fmt.Sprintf("%s has changed since %s was translated from it (commit %.12s): carry these changes over, %s.\n%s",
		d.Source, d.Path, d.Base, then, cutLines(strings.TrimRight(d.Diff, "\n"), maxLines))
}

// cutLines keeps the first max lines of s (all when max is 0) and says how many it left out.
func cutLines(s string, max int) string {
	lines := strings.Split(s, "\n")
	if max == 0 || len(lines) <= max {
		return s
	}
	return strings.Join(lines[:max], "\n") + fmt.Sprintf("\n[... %d more lines: make l10n-diff shows them all]", len(lines)-max)
}
