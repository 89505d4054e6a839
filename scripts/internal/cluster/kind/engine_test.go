package kind

import (
	"fmt"
	"strings"
	"testing"

	kindexec "sigs.k8s.io/kind/pkg/exec"
)

func TestStartHintNamesTheWayForEachSystem(t *testing.T) {
	cases := []struct{ engine, goos, want string }{
		{"podman", "darwin", "podman machine start"},
		{"podman", "linux", "systemctl --user start podman.socket"},
		{"docker", "darwin", "start Docker Desktop"},
		{"docker", "linux", "sudo systemctl start docker"},
	}
	for _, c := range cases {
		if got := (Engine{Name: c.engine}).startHint(c.goos); !strings.Contains(got, c.want) {
			t.Errorf("%s on %s: %q, want it to say %q", c.engine, c.goos, got, c.want)
		}
	}
}

func TestPullCauseSaysWhatWentWrong(t *testing.T) {
	cases := []struct{ output, want string }{
		{"v1.37.0: Pulling from kindest/node\nError response from daemon: toomanyrequests: You have reached your pull rate limit.", "pull rate limit"},
		{`Error response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io on 10.255.255.53:53: no such host`, "cannot be reached"},
		{"Error response from daemon: manifest for kindest/node@sha256:00 not found: manifest unknown", "does not know this image or digest"},
		{"Error response from daemon: pull access denied for kindest/nodes, repository does not exist", "refused the pull"},
		{"", "gave no reason"},
	}
	for _, c := range cases {
		if got := pullCause(c.output).Error(); !strings.Contains(got, c.want) {
			t.Errorf("cause of %q: %q, want it to say %q", c.output, got, c.want)
		}
	}
}

func TestRefusedPrivilegedContainerIsExplained(t *testing.T) {
	err := kindexec.Command("sh", "-c", `echo "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: unable to apply caps: operation not permitted: unknown." >&2; exit 125`).Run()
	got := withOutput(fmt.Errorf("failed to create node: %w", err)).Error()
	for _, want := range []string{"unable to apply caps", "refuses privileged containers", "CLUSTER=local make cluster"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q does not say %q", got, want)
		}
	}
}
