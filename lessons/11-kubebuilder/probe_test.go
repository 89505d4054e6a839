//go:build workshop

package lesson11

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"workshop.local/scripts/project"
)

// probeSource is a program the suite builds with the manager, as cmd/lesson11probe of the project
// (through go build's -overlay: nothing is written into your folder). It builds your reconciler
// with the fields cmd/main.go sets (Client, Scheme), on a direct, uncached client of the cluster
// through which one kind of request fails, calls
// Reconcile once and prints what it returned: what Reconcile does with an error the cluster does
// not make on demand.
const probeSource = `// Command lesson11probe is the workshop specs' probe (lessons/11-kubebuilder/probe_test.go): it
// builds the reconciler with the fields cmd/main.go sets, on a direct, uncached client of the
// cluster ($KUBECONFIG) through which one kind of request fails, calls Reconcile once for the Guestbook NAMESPACE/NAME, and
// prints what Reconcile returned, as JSON.
//
//	lesson11probe get NAMESPACE NAME     each read of a Guestbook fails with an internal error
//	lesson11probe status NAMESPACE NAME  each write of a Guestbook's status fails with a conflict
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	webappv1 "workshop.local/lessons/11-kubebuilder/api/v1"
	"workshop.local/lessons/11-kubebuilder/internal/controller"
)

// outcome is what Reconcile returned, or how it panicked.
type outcome struct {
	Error string
	Retry bool
	Panic string
}

func main() {
	scheme := runtime.NewScheme()
	must(clientgoscheme.AddToScheme(scheme))
	must(webappv1.AddToScheme(scheme))
	funcs := interceptor.Funcs{}
	switch os.Args[1] {
	case "get":
		funcs.Get = func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if _, ok := obj.(*webappv1.Guestbook); ok {
				return apierrors.NewInternalError(errors.New("etcdserver: request timed out"))
			}
			return c.Get(ctx, key, obj, opts...)
		}
	case "status":
		conflict := func(obj client.Object) error {
			return apierrors.NewConflict(webappv1.GroupVersion.WithResource("guestbooks").GroupResource(), obj.GetName(),
				errors.New("the object has been modified; please apply your changes to the latest version and try again"))
		}
		funcs.SubResourceUpdate = func(_ context.Context, _ client.Client, _ string, obj client.Object, _ ...client.SubResourceUpdateOption) error {
			return conflict(obj)
		}
		funcs.SubResourcePatch = func(_ context.Context, _ client.Client, _ string, obj client.Object, _ client.Patch, _ ...client.SubResourcePatchOption) error {
			return conflict(obj)
		}
	}
	c, err := client.NewWithWatch(ctrl.GetConfigOrDie(), client.Options{Scheme: scheme})
	must(err)
	r := &controller.GuestbookReconciler{Client: interceptor.NewClient(c, funcs), Scheme: scheme}

	var out outcome
	func() {
		defer func() {
			if p := recover(); p != nil {
				out.Panic = fmt.Sprint(p)
			}
		}()
		result, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: types.NamespacedName{Namespace: os.Args[2], Name: os.Args[3]}})
		if err != nil {
			out.Error = err.Error()
		}
		out.Retry = result.RequeueAfter > 0
	}()
	must(json.NewEncoder(os.Stdout).Encode(out))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
`

// probeOverlay writes the probe's source into dir and returns the overlay go build is given:
// the one of the files being checked (if any) with the probe added as cmd/lesson11probe/main.go.
func probeOverlay(dir string) (string, error) {
	overlay := struct{ Replace map[string]string }{Replace: map[string]string{}}
	if o := os.Getenv(project.OverlayEnv); o != "" {
		data, err := os.ReadFile(o)
		if err != nil {
			return "", err
		}
		if err := json.Unmarshal(data, &overlay); err != nil {
			return "", err
		}
	}
	here, err := os.Getwd()
	if err != nil {
		return "", err
	}
	source := filepath.Join(dir, "probe.go")
	if err := os.WriteFile(source, []byte(probeSource), 0o644); err != nil {
		return "", err
	}
	overlay.Replace[filepath.Join(here, "cmd", "lesson11probe", "main.go")] = source
	data, err := json.Marshal(overlay)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, data, 0o644)
}

// probeOutcome is what the probe saw Reconcile return.
type probeOutcome struct {
	Error string
	Retry bool
	Panic string
}

// probe runs the probe's scenario ("get" or "status") for the Guestbook ns/name, as the
// workshop's admin (through a proxy, as the manager).
func probe(ctx SpecContext, scenario, ns, name string) probeOutcome {
	GinkgoHelper()
	cmd := exec.CommandContext(ctx, setup.Probe, scenario, ns, name)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+proxiedKubeconfig(ns, "", &requestLog{}))
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		Fail("the probe that calls your Reconcile failed (" + err.Error() + "): " + string(exit.Stderr))
	}
	Expect(err).NotTo(HaveOccurred(), "could not run the probe that calls your Reconcile")
	var outcome probeOutcome
	Expect(json.Unmarshal(out, &outcome)).To(Succeed(), "the probe's output is not what it writes: %s", out)
	Expect(outcome.Panic).To(BeEmpty(), "Reconcile panicked (called once on a reconciler with the fields cmd/main.go sets): %s", outcome.Panic)
	return outcome
}
