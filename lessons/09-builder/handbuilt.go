package sites

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// The Website controller wired by hand, the lesson 07 way. It needs no edits: it is what
// exercise 1 rebuilds with the Builder, and the specs run the same changes against both and
// compare the requests each one reconciles.
//
// Each watch below is what one Builder call makes (pkg/builder/controller.go, doWatch):
//
//	For(&Website{}, WithPredicates(p))   source.Kind(cache, &Website{}, &handler.EnqueueRequestForObject{}, p)
//	Owns(&corev1.ConfigMap{})            source.Kind(cache, &corev1.ConfigMap{}, handler.EnqueueRequestForOwner(scheme, mapper, &Website{}, handler.OnlyControllerOwner()))
//	Watches(obj, h, WithPredicates(p))   source.Kind(cache, obj, h, p)
//	WithOptions(o), Named(n)             controller.New(n, mgr, o) with o.Reconciler set
//
// The Builder uses untyped sources (client.Object events), so this file does too.

// NewHandBuiltController creates a controller named name in mgr that calls r with Workers
// workers, retries failed requests at retry's pace, and watches:
//   - Websites, through parent (a predicate for the parent only; predicate.Funcs{} lets all
//     events through), enqueueing the Website itself;
//   - ConfigMaps and Deployments, enqueueing the Website that is their controller (owner);
//   - the settings ConfigMap of a namespace, enqueueing every Website in that namespace.
func NewHandBuiltController(mgr manager.Manager, name string, r reconcile.Reconciler,
	retry workqueue.TypedRateLimiter[reconcile.Request], parent predicate.Predicate) (controller.Controller, error) {
	c, err := controller.New(name, mgr, controller.Options{Reconciler: r, MaxConcurrentReconciles: Workers, RateLimiter: retry})
	if err != nil {
		return nil, err
	}
	cache := mgr.GetCache()
	toOwner := handler.EnqueueRequestForOwner(mgr.GetScheme(), mgr.GetRESTMapper(), &Website{}, handler.OnlyControllerOwner())
	toSites := handler.EnqueueRequestsFromMapFunc(SitesInNamespace(mgr.GetClient()))
	watches := []source.Source{
		source.Kind[client.Object](cache, &Website{}, &handler.EnqueueRequestForObject{}, parent),
		source.Kind[client.Object](cache, &corev1.ConfigMap{}, toOwner),
		source.Kind[client.Object](cache, &appsv1.Deployment{}, toOwner),
		source.Kind[client.Object](cache, &corev1.ConfigMap{}, toSites, predicate.NewPredicateFuncs(IsSettings)),
	}
	for _, w := range watches {
		if err := c.Watch(w); err != nil {
			return nil, err
		}
	}
	return c, nil
}
