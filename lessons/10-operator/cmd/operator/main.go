// Command operator runs the StaticSite controller, your code, as a process against the
// workshop cluster: `make run` inside lessons/10-operator. It installs (or updates) the CRD of
// config/crd/, makes the directory's namespace, and reconciles StaticSites in every namespace
// until Ctrl-C. It needs no edits.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2/textlogger"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	operator "workshop.local/lessons/10-operator"
	"workshop.local/lessons/10-operator/api/v1alpha1"
	"workshop.local/scripts/workspace"
)

func main() {
	directory := flag.String("directory-namespace", "site-directory", "the namespace of the site directory ConfigMap")
	flag.Parse()
	ctrl.SetLogger(textlogger.NewLogger(textlogger.NewConfig()))
	if err := run(*directory); err != nil {
		fmt.Fprintln(os.Stderr, "operator:", err)
		os.Exit(1)
	}
}

func run(directory string) error {
	// The workshop cluster's kubeconfig, found as the specs find it, and only that cluster's:
	// this process writes to the cluster, so any other context is refused before any request.
	cfg, err := workspace.LoadConfig()
	if err != nil {
		return err
	}
	ctx := ctrl.SetupSignalHandler()
	if err := workspace.CheckReachable(ctx, cfg); err != nil {
		return err
	}
	if err := installCRD(ctx, cfg); err != nil {
		return err
	}
	if err := ensureNamespace(ctx, cfg, directory); err != nil {
		return err
	}
	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(v1alpha1.AddToScheme(scheme))
	mgr, err := manager.New(cfg, manager.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"}, // no ports to collide with
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		return err
	}
	if err := operator.NewReconciler(mgr, directory).SetupWithManager(mgr); err != nil {
		return err
	}
	fmt.Printf("Reconciling StaticSites (directory: %s/%s). Try: kubectl apply -f samples/ ; Ctrl-C to stop.\n", directory, operator.DirectoryName)
	return mgr.Start(ctx)
}

// installCRD creates the CRD of config/crd/, or updates the installed one to it.
func installCRD(ctx context.Context, cfg *rest.Config) error {
	crd, err := operator.CRD()
	if err != nil {
		return fmt.Errorf("config/crd/ holds no CRD (run make generate): %w", err)
	}
	crds := apiextensionsclient.NewForConfigOrDie(cfg).ApiextensionsV1().CustomResourceDefinitions()
	installed, err := crds.Get(ctx, crd.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		_, err = crds.Create(ctx, crd, metav1.CreateOptions{})
	case err == nil:
		crd.ResourceVersion = installed.ResourceVersion
		_, err = crds.Update(ctx, crd, metav1.UpdateOptions{})
	}
	return err
}

// ensureNamespace creates the namespace name unless it exists.
func ensureNamespace(ctx context.Context, cfg *rest.Config, name string) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	_, err := kubernetes.NewForConfigOrDie(cfg).CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}
