// Wrong (exercise 3): it compares status.availableReplicas instead of status.readyReplicas.
// A pod counts as available only once it has been ready for the Deployment's minReadySeconds, so
// the two numbers can change in different updates: the site reports readyReplicas, and an update
// that changes only that number is dropped.

package sites

import (
	appsv1 "k8s.io/api/apps/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 3: a second controller in the same manager, with a name and a filter of its own.
//
// A manager runs any number of controllers; each has a name, and the name is how you tell them
// apart: it is the "controller" key of the logger each Reconcile gets in its context, the
// "controller" label of its metrics (controller_runtime_reconcile_total{controller="..."}) and
// the name of its workqueue. So controller-runtime refuses a second controller with a name
// already taken in the process, unless name validation is skipped (SkipNameValidation, which a
// test process that builds many managers needs).
//
// Without Named, the Builder names a controller after the kind of For, lower-cased: two
// controllers For(&Website{}) are both "website".
//
// The readiness controller reports how many web servers of a site are ready. That number is in
// the status of the site's Deployment (status.readyReplicas), and the cluster's Deployment
// controller updates that status often: replicas, updatedReplicas, availableReplicas,
// observedGeneration, conditions. Most of those updates say nothing new about readiness. A
// predicate on that one watch drops them; every event of a Website still counts.

// ReadinessControllerName names the readiness controller in logs and metrics. (Named's doc asks
// for a Prometheus-friendly name: letters, digits and underscores.)
const ReadinessControllerName = "website_readiness"

// ReadinessChanged is the predicate of the readiness controller's Deployment watch. It lets
// through creations, deletions and generic events, and the updates of a Deployment whose number
// of ready replicas changed, up or down. It drops every other update: of the spec, the labels
// or annotations, the rest of the status, and resyncs. It is meant for Deployments only: an
// update of anything else is dropped.
func ReadinessChanged() predicate.Predicate {
	// Funcs lets through every event whose func is nil: creations, deletions, generic events.
	return predicate.Funcs{
		UpdateFunc: func(e event.UpdateEvent) bool {
			before, oldOK := e.ObjectOld.(*appsv1.Deployment)
			after, newOK := e.ObjectNew.(*appsv1.Deployment)
			// Compare the two: "is it ready?" would let every update of a ready Deployment
			// through, and "did it grow?" would miss a pod that stopped being ready.
			return oldOK && newOK && before.Status.AvailableReplicas != after.Status.AvailableReplicas
		},
	}
}

// NewReadinessController builds a second controller for Websites, which runs beside the
// Website controller of exercise 1 in the same manager. Named ReadinessControllerName, it calls
// r for every event of a Website (someone may overwrite the readiness it reports), and for the
// Website that controls a Deployment when ReadinessChanged lets that Deployment's event through.
func NewReadinessController(mgr manager.Manager, r reconcile.Reconciler) (controller.Controller, error) {
	return ctrl.NewControllerManagedBy(mgr).
		Named(ReadinessControllerName).
		For(&Website{}).
		// The predicate goes in this watch's options: WithEventFilter would apply it to the
		// Websites too, and it drops every update that is not a Deployment's.
		Owns(&appsv1.Deployment{}, builder.WithPredicates(ReadinessChanged())).
		Build(r)
}
