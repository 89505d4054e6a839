package hollownode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	internalapi "k8s.io/cri-api/pkg/apis"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	remote "k8s.io/cri-client/pkg"
	fakeremote "k8s.io/cri-client/pkg/fake"
)

// noContainers is what the node says when asked to reach into a container.
const noContainers = "the workshop's hollow node runs no containers: its Pods are Running on paper only, " +
	"so there is no process to exec into, attach to or forward a port to, and no log"

// fakeRuntime is kubemark's in-process CRI runtime, served on a unix socket, and the kubelet's
// client for it.
type fakeRuntime struct {
	*fakeremote.RemoteRuntime
	runtime internalapi.RuntimeService
}

// startFakeRuntime serves the fake runtime on a socket in dir and connects to it.
func startFakeRuntime(ctx context.Context, dir string) (*fakeRuntime, error) {
	endpoint := "unix://" + filepath.Join(dir, "runtime.sock")
	fake := fakeremote.NewFakeRemoteRuntime()
	if err := fake.Start(endpoint); err != nil {
		return nil, fmt.Errorf("start the fake container runtime: %w", err)
	}
	rs, err := remote.NewRemoteRuntimeServiceBuilder().WithEndpoint(endpoint).WithConnectionTimeout(15 * time.Second).Build(ctx)
	if err != nil {
		fake.Stop()
		return nil, fmt.Errorf("connect to the fake container runtime: %w", err)
	}
	logPath, err := writeNoContainersLog(dir)
	if err != nil {
		fake.Stop()
		return nil, err
	}
	return &fakeRuntime{RemoteRuntime: fake, runtime: honestRuntime{rs, logPath}}, nil
}

// honestRuntime wraps the fake runtime, whose answers to exec, attach and port-forward are empty
// (kubectl then says "URL is not set") and whose containers' log path is "." (kubectl then prints
// "read .: is a directory"). It says what is really going on instead.
type honestRuntime struct {
	internalapi.RuntimeService
	logPath string
}

// errNoContainers travels from the runtime through the kubelet, which writes the error's text
// as the HTTP body, to kubectl, which prints the message of a Kubernetes Status it finds in that
// body and nothing otherwise. So the text is a Status, in JSON.
var errNoContainers = func() error {
	status := apierrors.NewBadRequest(noContainers).Status()
	status.Kind, status.APIVersion = "Status", "v1"
	text, _ := json.Marshal(status)
	return errors.New(string(text))
}()

func (honestRuntime) Exec(context.Context, *runtimeapi.ExecRequest) (*runtimeapi.ExecResponse, error) {
	return nil, errNoContainers
}

func (honestRuntime) Attach(context.Context, *runtimeapi.AttachRequest) (*runtimeapi.AttachResponse, error) {
	return nil, errNoContainers
}

func (honestRuntime) PortForward(context.Context, *runtimeapi.PortForwardRequest) (*runtimeapi.PortForwardResponse, error) {
	return nil, errNoContainers
}

// ContainerStatus points every container's log at one file that says there is no log. The
// kubelet reads a container's log from that path, so `kubectl logs` prints that one line.
func (r honestRuntime) ContainerStatus(ctx context.Context, id string, verbose bool) (*runtimeapi.ContainerStatusResponse, error) {
	resp, err := r.RuntimeService.ContainerStatus(ctx, id, verbose)
	if err == nil && resp.GetStatus() != nil {
		resp.Status.LogPath = r.logPath
	}
	return resp, err
}

// writeNoContainersLog writes one line in the CRI log format (time, stream, tag, text).
func writeNoContainersLog(dir string) (string, error) {
	path := filepath.Join(dir, "no-containers.log")
	line := fmt.Sprintf("%s stderr F (%s)\n", time.Now().UTC().Format(time.RFC3339Nano), noContainers)
	return path, os.WriteFile(path, []byte(line), 0o600)
}
