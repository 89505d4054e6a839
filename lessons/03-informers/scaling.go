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
// and the Pods of namespace that match selector, and records in rec every notification they
// deliver, as "add ReplicaSet <namespace>/<name>", "update Pod <namespace>/<name>", "delete Pod
// <namespace>/<name>" and so on. It returns once both informers have synced and both handlers
// have been told about every object of the initial lists; the informers run until ctx is
// cancelled.
//
// Use the type-safe informers this time (TypedInformer()): their handlers get the typed object
// (a *corev1.Pod, say), and on delete a cache.DeletedObject[T] that has a key even when it
// carries no object.
func CountDeploymentEvents(ctx context.Context, client kubernetes.Interface, namespace, selector string, rec *Recorder) error {
	// TODO(exercise 5): count what the ReplicaSet and Pod informers of one factory tell their
	// handlers, and return only once both handlers have caught up with the initial lists.
	return errNotImplemented(5)
}
