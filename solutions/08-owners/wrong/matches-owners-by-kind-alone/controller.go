// Wrong (exercise 3): it maps a child to its controller with its own function, which checks the controller reference's kind but not its group.
// A child controlled by a Website of another API group (another team's CRD with the same kind
// name, say) enqueues the Website of this group that happens to share its name: reconciles
// for objects this controller has nothing to do with.

package owners

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// Exercise 3: owner watches, so that children heal.
//
// A Website's controller must hear about its children too: someone deletes the Deployment, or
// edits the page by hand, and no Website changes, so no Website event comes. An owner watch
// watches the children's kind and turns each child event into a request for the child's
// *owner*, found in its owner references: handler.EnqueueRequestForOwner. With
// handler.OnlyControllerOwner() it follows only the controller reference, the one that says
// "this Website manages me"; without it, any owner reference of the right kind would do.

// ControllerName names the Website controller in logs and metrics.
const ControllerName = "website"

// NewWebsiteController creates a controller named ControllerName in mgr that calls r, and
// makes it watch:
//   - Websites, each event enqueuing the Website itself;
//   - ConfigMaps and Deployments, each event enqueuing the Website that is the child's
//     controller (and nothing for a child without one).
//
// mgr's Scheme must know Websites.
func NewWebsiteController(mgr manager.Manager, r reconcile.Reconciler) (controller.Controller, error) {
	c, err := controller.New(ControllerName, mgr, controller.Options{Reconciler: r})
	if err != nil {
		return nil, err
	}
	sites := source.Kind(mgr.GetCache(), &Website{}, &handler.TypedEnqueueRequestForObject[*Website]{})
	pages := source.Kind(mgr.GetCache(), &corev1.ConfigMap{},
		handler.TypedEnqueueRequestsFromMapFunc(controllingWebsite[*corev1.ConfigMap]))
	deployments := source.Kind(mgr.GetCache(), &appsv1.Deployment{},
		handler.TypedEnqueueRequestsFromMapFunc(controllingWebsite[*appsv1.Deployment]))
	for _, src := range []source.Source{sites, pages, deployments} {
		if err := c.Watch(src); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// controllingWebsite maps a child to the Website that controls it, if any.
func controllingWebsite[T client.Object](_ context.Context, child T) []reconcile.Request {
	ref := metav1.GetControllerOf(child)
	if ref == nil || ref.Kind != "Website" {
		return nil
	}
	return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: child.GetNamespace(), Name: ref.Name}}}
}
