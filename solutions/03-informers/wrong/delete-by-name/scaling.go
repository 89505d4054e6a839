// Wrong (exercise 5): the delete handler records the DeletedObject's GetName() instead of its GetKey().
// GetName is the name alone, without the namespace: not the key the informer's cache and a
// workqueue use. A controller that enqueues it on a delete looks up namespace "" and finds
// nothing, or two objects of one name in different namespaces become one.

package informers

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// Exercise 5: an experiment. Count what an informer sees while a Deployment scales.
//
// A Deployment does nothing by itself: the Deployment controller (in kube-controller-manager)
// creates a ReplicaSet for it and changes that ReplicaSet's replicas when you scale; the
// ReplicaSet controller creates and deletes Pods; the scheduler binds each Pod to a node; the
// node's kubelet reports the Pod's status. Every one of those writes is an event for whoever
// watches. Run the specs with -ginkgo.v to see the counts, and the README for why they are what
// they are.

// Exercise 5a: one event handler for any kind of object, for the type-safe informers.
//
// A type-safe informer (TypedInformer()) hands its handler the typed object (a *corev1.Pod, say)
// on add and update. On delete it hands over a cache.DeletedObject[T]: the deleted object when
// the watch reported the deletion, and a tombstone when a relist found the object gone. Then the
// object it carries is the last state the cache held, which may be stale, or missing altogether.
//
// RecordEvents returns a handler that records each notification in rec as "add <kind>
// <namespace>/<name>", "update <kind> <namespace>/<name>" or "delete <kind> <namespace>/<name>",
// <kind> being the kind it is given ("Pod", "ReplicaSet"). It must record every deletion under
// the key the object had in the cache, tombstones included.
func RecordEvents[T cache.Object](rec *Recorder, kind string) cache.TypedResourceEventHandler[T] {
	key := func(obj T) string { return cache.NewObjectName(obj.GetNamespace(), obj.GetName()).String() }
	return cache.TypedResourceEventHandlerFuncs[T]{
		AddFunc:    func(obj T) { rec.Record("add " + kind + " " + key(obj)) },
		UpdateFunc: func(_, newObj T) { rec.Record("update " + kind + " " + key(newObj)) },
		// GetKey works whether or not the DeletedObject carries the object (OptionalObj may be
		// nil): for a tombstone it is the key the cache held the object under.
		DeleteFunc: func(obj cache.DeletedObject[T]) { rec.Record("delete " + kind + " " + obj.GetName()) },
	}
}

// Exercise 5b: count what the ReplicaSet and Pod informers of one factory tell their handlers.
//
// CountDeploymentEvents starts informers, from one SharedInformerFactory, for the ReplicaSets
// and the Pods of namespace that match selector, each with a RecordEvents handler that records in
// rec. It returns once both informers have synced and both handlers have been told about every
// object of the initial lists; the informers run until ctx is cancelled.
func CountDeploymentEvents(ctx context.Context, client kubernetes.Interface, namespace, selector string, rec *Recorder) error {
	factory := kubeinformers.NewSharedInformerFactoryWithOptions(client, 0,
		kubeinformers.WithNamespace(namespace),
		kubeinformers.WithTweakListOptions(func(options *metav1.ListOptions) { options.LabelSelector = selector }),
	)
	logger := klog.FromContext(ctx)
	options := cache.HandlerOptions{Logger: &logger}
	replicaSets, err := factory.Apps().V1().ReplicaSets().TypedInformer().AddTypedEventHandler(RecordEvents[*appsv1.ReplicaSet](rec, "ReplicaSet"), options)
	if err != nil {
		return err
	}
	pods, err := factory.Core().V1().Pods().TypedInformer().AddTypedEventHandler(RecordEvents[*corev1.Pod](rec, "Pod"), options)
	if err != nil {
		return err
	}
	factory.StartWithContext(ctx)
	// A registration has synced once its informer has and its handler has been told about every
	// object of the initial list. Each registration has its own handler: wait for both.
	if !cache.WaitFor(ctx, "", replicaSets.HasSyncedChecker(), pods.HasSyncedChecker()) {
		return fmt.Errorf("the informers did not sync: %w", context.Cause(ctx))
	}
	return nil
}
