package proof

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"workshop.local/scripts/internal/l10n"
)

// translationsCurrent is the static check of the Simplified Chinese edition (issue 40): every
// translation was made from its English as it is now (else it names the file and shows the
// English diff since), has the English's structure, and uses the glossary's words. It reads
// files and, only for a translation that is behind, git's history: no cluster, no build.
func (t *tester) translationsCurrent(ctx context.Context) (string, error) {
	r, err := l10n.Check(ctx, t.root)
	if err != nil {
		return "", err
	}
	if len(r.Problems) > 0 {
		var lines []string
		for _, p := range r.Problems {
			lines = append(lines, p.String())
		}
		return "", errors.New(strings.Join(lines, "\n") + "\n(make l10n-diff LESSON=NN shows what changed in the English)")
	}
	if len(r.Translations) == 0 {
		return "no translations yet: nothing to keep in step", nil
	}
	return fmt.Sprintf("%d translations current, each shaped like its English; %d glossary terms kept", len(r.Translations), r.Terms), nil
}
