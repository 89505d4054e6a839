// Wrong (exercise 3): it silences the name collision with SkipNameValidation instead of naming the controller.
// The second controller is still called "website": its log lines and its
// controller_runtime_reconcile_total are the Website controller's, and nobody can tell which of
// the two did what. The option exists for tests that build many managers in one process.

package sites

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 3: two controllers in one manager, and their names.
//
// A manager runs any number of controllers; each has a name, and the name is how you tell them
// apart: it is the "controller" key of every line the controller logs (and of the logger its
// Reconcile gets in its context), the "controller" label of its metrics
// (controller_runtime_reconcile_total{controller="..."}) and the name of its workqueue. So
// controller-runtime refuses a second controller with a name already taken in the process,
// unless name validation is skipped (config.Controller.SkipNameValidation, meant for tests that
// build many managers in one process).
//
// Without Named, the Builder names a controller after the kind of For, lower-cased: two
// controllers For(&Website{}) are both "website".

// ReadinessControllerName names the readiness controller in logs and metrics.
const ReadinessControllerName = "website-readiness"

// NewReadinessController builds a second controller for Websites, which runs beside the
// Website controller of exercise 1 in the same manager: named ReadinessControllerName, it calls
// r for a Website, and for the Website that controls a Deployment when that Deployment changes
// (the number of ready web servers is in the Deployment's status).
func NewReadinessController(mgr manager.Manager, r reconcile.Reconciler) (controller.Controller, error) {
	return ctrl.NewControllerManagedBy(mgr).
		For(&Website{}).
		Owns(&appsv1.Deployment{}).
		WithOptions(controller.Options{SkipNameValidation: ptr.To(true)}).
		Build(r)
}
