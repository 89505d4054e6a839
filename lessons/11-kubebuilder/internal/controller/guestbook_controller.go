package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	webappv1 "workshop.local/lessons/11-kubebuilder/api/v1"
)

// Exercise 2: the reconciler (Reconcile and SetupWithManager). Exercise 3: the RBAC markers
// above Reconcile. README.md says what each must do.
//
// cmd/main.go (scaffolding, no edits) builds this reconciler with the manager's client and
// scheme, and calls SetupWithManager; anything more the reconciler needs, it sets up there.

// GuestbookReconciler reconciles a Guestbook object
type GuestbookReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// +kubebuilder:rbac:groups=webapp.lesson11.workshop.local,namespace=guestbook-system,resources=guestbooks,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=webapp.lesson11.workshop.local,namespace=guestbook-system,resources=guestbooks/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=webapp.lesson11.workshop.local,namespace=guestbook-system,resources=guestbooks/finalizers,verbs=update
// TODO(exercise 3): markers for what the controller does with ConfigMaps and Deployments, then
// run make manifests and read config/rbac/role.yaml.

// Reconcile is part of the main kubernetes reconciliation loop which aims to
// move the current state of the cluster closer to the desired state.
// TODO(user): Modify the Reconcile function to compare the state specified by
// the Guestbook object against the actual cluster state, and then
// perform operations to make the cluster state reflect the state specified by
// the user.
//
// For more details, check Reconcile and its Result here:
// - https://pkg.go.dev/sigs.k8s.io/controller-runtime@v0.25.0/pkg/reconcile
func (r *GuestbookReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	_ = logf.FromContext(ctx)

	// TODO(user): your logic here
	// TODO(exercise 2): read the Guestbook; make its page ConfigMap and its Deployment, each
	// controlled by it; write observedGeneration, readyReplicas and the Available condition
	// through the status subresource. Write nothing when nothing changed.

	return ctrl.Result{}, nil
}

// SetupWithManager sets up the controller with the Manager.
func (r *GuestbookReconciler) SetupWithManager(mgr ctrl.Manager) error {
	// TODO(exercise 2): reconcile a Guestbook also when one of its children changes or goes.
	return ctrl.NewControllerManagedBy(mgr).
		For(&webappv1.Guestbook{}).
		Named("guestbook").
		Complete(r)
}
