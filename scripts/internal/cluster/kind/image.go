package kind

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"workshop.local/scripts/internal/text"
)

// The node image is pulled by us, not by kind: kind's pull (docker/images.go, pullIfNotPresent)
// runs without a context, so Ctrl-C cannot stop it, retries 4 times with growing pauses, and
// keeps the engine's message out of the error. Once the image is present kind only inspects it.

// manifestTimeout bounds asking the registry whether the image can be pulled: with no network
// the answer should come in seconds, and `auto` must not hang on it.
const manifestTimeout = 20 * time.Second

// ImagePresent is true when the engine already holds image.
func (e Engine) ImagePresent(ctx context.Context, image string) bool {
	ctx, cancel := context.WithTimeout(ctx, infoTimeout)
	defer cancel()
	return exec.CommandContext(ctx, e.Name, "image", "inspect", image).Run() == nil
}

// Pullable asks the registry for image's manifest without pulling it; nil when it can be
// pulled, else the cause in plain words.
func (e Engine) Pullable(ctx context.Context, image string) error {
	ctx, cancel := context.WithTimeout(ctx, manifestTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, e.Name, "manifest", "inspect", image).CombinedOutput()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("the registry did not answer within %s", manifestTimeout)
	}
	return pullCause(string(out))
}

// Pull pulls image, showing the engine's progress on out, and says why when it fails. A
// cancelled ctx (Ctrl-C) stops the pull.
func (e Engine) Pull(ctx context.Context, image string, out io.Writer) error {
	fmt.Fprintf(out, "Pulling the kind node image %s (several hundred MB, once)...\n", image)
	cmd := exec.CommandContext(ctx, e.Name, "pull", image)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return err
	}
	var last []string // the engine's last lines, kept for the cause
	scanner := bufio.NewScanner(pipe)
	for scanner.Scan() {
		line := scanner.Text()
		fmt.Fprintln(out, "  "+line)
		last = append(last, line)
		if len(last) > 20 {
			last = last[1:]
		}
	}
	err = cmd.Wait()
	if ctx.Err() != nil {
		return fmt.Errorf("pulling %s was interrupted: %w", image, ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("pulling the kind node image %s failed: %w", image, pullCause(strings.Join(last, "\n")))
	}
	return nil
}

// pullCause turns an engine's pull or manifest output into a cause the learner can act on.
func pullCause(output string) error {
	lower := strings.ToLower(output)
	first := lastLine(output) // engines put the error last, after any progress
	switch {
	case strings.Contains(lower, "toomanyrequests") || strings.Contains(lower, "rate limit"):
		return fmt.Errorf("Docker Hub's pull rate limit is reached (%s): log in with `docker login` or wait", first)
	case strings.Contains(lower, "manifest unknown") || strings.Contains(lower, "no such manifest"):
		return fmt.Errorf("the registry does not know this image or digest (%s): check KIND_NODE_IMAGE in scripts/versions/versions.env", first)
	case strings.Contains(lower, "no such host") || strings.Contains(lower, "dial tcp") ||
		strings.Contains(lower, "network is unreachable") || strings.Contains(lower, "timeout") ||
		strings.Contains(lower, "connection refused") || strings.Contains(lower, "temporary failure in name resolution"):
		return fmt.Errorf("the registry cannot be reached: no network or a proxy in the way (%s)", first)
	case strings.Contains(lower, "unauthorized") || strings.Contains(lower, "denied"):
		return fmt.Errorf("the registry refused the pull (%s)", first)
	case first == "":
		return fmt.Errorf("the engine gave no reason")
	default:
		return fmt.Errorf("%s", first)
	}
}

// lastLine is the last non-empty line of s, trimmed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return text.FirstLine(lines[len(lines)-1])
}
