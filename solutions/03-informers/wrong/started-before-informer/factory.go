// Wrong (exercise 4): the factory is started before the ConfigMap informer is asked for.
// Start runs only the informers requested from the factory so far: this one is created after
// it and never runs. Its cache stays empty, WaitForCacheSync has nothing to wait for, and a
// wait for the handler's registration lasts until the context ends.

package informers

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// Exercise 4a: an event handler that copes with tombstones.
//
// An informer calls OnAdd, OnUpdate and OnDelete after it has updated its cache. The handler
// records each notification in rec as "add <namespace>/<name>", "update <namespace>/<name>" or
// "delete <namespace>/<name>".
//
// OnDelete does not always get a *corev1.ConfigMap. When the watch missed a deletion (it was
// down, or the server had compacted the event away) the next relist finds the object gone, and
// the handler gets a cache.DeletedFinalStateUnknown "tombstone" instead: its Key is certain,
// its Obj is the last state the cache knew, which may be stale, or nil.
func ConfigMapHandler(rec *Recorder) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { rec.Record("add " + keyOf(obj)) },
		UpdateFunc: func(_, newObj any) { rec.Record("update " + keyOf(newObj)) },
		DeleteFunc: func(obj any) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				rec.Record("delete " + tombstone.Key) // never touch tombstone.Obj unchecked
				return
			}
			rec.Record("delete " + keyOf(obj))
		},
	}
}

// keyOf returns "namespace/name". A handler has no error to return, so a key that cannot be
// computed is recorded as such rather than dropped.
func keyOf(obj any) string {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return fmt.Sprintf("<no key: %v>", err)
	}
	return key
}

// Exercise 4b: a shared informer for the ConfigMaps of one namespace that match a label
// selector, with your handler, started and synced, and a lister that reads its cache.
//
// A SharedInformerFactory hands out one informer per type, so every part of a program that asks
// for ConfigMaps shares one watch and one cache. Its options narrow what it asks the server
// for: WithNamespace, and WithTweakListOptions to add a label selector to every list and watch.
//
// StartConfigMapInformer returns only once the cache holds the whole selection and the handler
// has been told about every object in it, so the caller can trust the lister at once. The
// informer runs until ctx is cancelled.
func StartConfigMapInformer(ctx context.Context, client kubernetes.Interface, namespace, selector string, rec *Recorder) (corelisters.ConfigMapLister, error) {
	factory := kubeinformers.NewSharedInformerFactoryWithOptions(client, 0,
		kubeinformers.WithNamespace(namespace),
		kubeinformers.WithTweakListOptions(func(options *metav1.ListOptions) { options.LabelSelector = selector }),
	)
	// The factory runs from here on; the informers are asked for next.
	factory.StartWithContext(ctx)
	configMaps := factory.Core().V1().ConfigMaps()
	logger := klog.FromContext(ctx)
	registration, err := configMaps.Informer().AddEventHandlerWithOptions(ConfigMapHandler(rec), cache.HandlerOptions{Logger: &logger})
	if err != nil {
		return nil, err
	}
	if err := factory.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		return nil, err
	}
	// The cache is complete; the handler may still be working through the initial list.
	if !cache.WaitFor(ctx, "", registration.HasSyncedChecker()) {
		return nil, fmt.Errorf("the ConfigMap handler did not sync: %w", context.Cause(ctx))
	}
	return configMaps.Lister(), nil
}
