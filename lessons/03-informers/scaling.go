package informers

import (
	"context"

	"k8s.io/client-go/kubernetes"
)

// Exercise 5: an experiment. Count what an informer sees while a Deployment scales.
//
// A Deployment does nothing by itself: the Deployment controller (in kube-controller-manager)
// creates a ReplicaSet for it and changes that ReplicaSet's replicas when you scale; the
// ReplicaSet controller creates and deletes Pods; the scheduler binds each Pod to a node; the
// node's kubelet reports the Pod's status. Every one of those writes is an event for whoever
// watches. Run the specs with -ginkgo.v to see the counts, and the README for why they are what
// they are.
//
// CountDeploymentEvents starts informers, from one SharedInformerFactory, for the ReplicaSets
// and the Pods of namespace that match selector, and records in the returned Recorder every
// notification they deliver, as "add ReplicaSet <namespace>/<name>", "update Pod
// <namespace>/<name>", "delete Pod <namespace>/<name>" and so on. It returns once both informers
// have synced and their handlers have seen the initial list; the informers run until ctx is
// cancelled.
func CountDeploymentEvents(ctx context.Context, client kubernetes.Interface, namespace, selector string) (*Recorder, error) {
	// TODO(exercise 5): as in exercise 4, make one factory limited to namespace and selector.
	// This time use the type-safe informers: factory.Apps().V1().ReplicaSets().TypedInformer()
	// and factory.Core().V1().Pods().TypedInformer(), and register on each, with
	// AddTypedEventHandler, a cache.TypedResourceEventHandlerFuncs[T] whose functions get a *T
	// directly, and for deletes a cache.DeletedObject[T] (its GetKey() works for tombstones too).
	// Start the factory, then cache.WaitFor every registration's HasSyncedChecker().
	return nil, errNotImplemented(5)
}
