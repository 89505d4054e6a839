// Wrong (exercise 1): it gives the settings' map function the API reader instead of the manager's client.
// The map function runs for every event of the settings, and through mgr.GetAPIReader() each run
// is one LIST of Websites sent to the API server, where the manager's client reads the cache the
// controller already keeps for Websites.

package sites

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 1: the controller of handbuilt.go, built with the Builder.
//
// ctrl.NewControllerManagedBy(mgr) starts a chain that describes a controller: what it
// reconciles (For), what it creates and must hear about (Owns), what else concerns it
// (Watches, with a handler that says which requests an event makes), how it runs (WithOptions)
// and what it is called (Named). Build(r) then does what handbuilt.go does by hand:
// controller.New, then one Watch(source.Kind(...)) per watch, and returns the controller.

// ControllerName names the Website controller in logs and metrics. It is the name the Builder
// would derive from the kind anyway (lower-cased "Website"); naming it keeps the logs and
// metrics stable if the controller ever reconciles another kind.
const ControllerName = "website"

// Workers is how many Websites the controller reconciles at once.
const Workers = 2

// NewWebsiteController builds, with ctrl.NewControllerManagedBy, the controller that
// NewHandBuiltController builds by hand: named ControllerName, calling r with Workers workers,
// retrying at retry's pace, and watching
//   - Websites, through parent (for the parent only: the children's events must not meet it);
//   - ConfigMaps and Deployments that a Website controls (owner references);
//   - the settings ConfigMap (IsSettings) of a namespace, mapped to every Website there with
//     SitesInNamespace(mgr.GetClient()).
func NewWebsiteController(mgr manager.Manager, r reconcile.Reconciler,
	retry workqueue.TypedRateLimiter[reconcile.Request], parent predicate.Predicate) (controller.Controller, error) {
	return ctrl.NewControllerManagedBy(mgr).
		Named(ControllerName).
		For(&Website{}, builder.WithPredicates(parent)).
		Owns(&corev1.ConfigMap{}).
		Owns(&appsv1.Deployment{}).
		Watches(&corev1.ConfigMap{},
			handler.EnqueueRequestsFromMapFunc(SitesInNamespace(mgr.GetAPIReader())),
			builder.WithPredicates(predicate.NewPredicateFuncs(IsSettings))).
		WithOptions(controller.Options{MaxConcurrentReconciles: Workers, RateLimiter: retry}).
		Build(r)
}
