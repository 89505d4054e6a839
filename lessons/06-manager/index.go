package managers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// UsesConfigMapField names the field index of exercise 3: the names of the ConfigMaps a Pod
// uses. It is not a field of the Pod: it is computed from the Pod by your index function, and
// a List asks for it by this name in a field selector, as if it were a field.
const UsesConfigMapField = "usesConfigMap"

// Exercise 3a: a field index on the manager's cache: for each Pod, the names of the
// ConfigMaps it uses, through a volume (Volumes[].ConfigMap), or in any of its containers
// through envFrom (Containers[].EnvFrom[].ConfigMapRef) or through one variable
// (Containers[].Env[].ValueFrom.ConfigMapKeyRef). (A complete index would also look at init
// containers and projected volumes; this lesson leaves them out to stay short.)
//
// This is the indexer of lesson 03 (cache.Indexers on a SharedIndexInformer), wrapped:
// controller-runtime registers your function on the Pod informer, and its cache answers a
// List with a field selector from that index, without asking the API server. The server could
// not answer it anyway: it supports only a few built-in field selectors per kind.
//
// Register indexes before the manager starts, so no List finds them missing.
func IndexPodsByConfigMap(ctx context.Context, mgr manager.Manager) error {
	// TODO(exercise 3): register, on Pods and under the name UsesConfigMapField, a function
	// that returns the names of the ConfigMaps a Pod uses. It runs for every Pod the cache
	// holds, most of which use no ConfigMap at all.
	return errNotImplemented(3)
}

// Exercise 3b: the Pods of one namespace that use a ConfigMap, answered from the cache's index.
// A controller that reacts to ConfigMap changes asks this to find the Pods to act on. When the
// reader cannot answer (no such index, a cache not started), say so: "no Pods" would be a
// wrong answer that nobody notices.
func PodsUsingConfigMap(ctx context.Context, reader client.Reader, namespace, configMap string) ([]corev1.Pod, error) {
	// TODO(exercise 3): ask reader for the Pods of namespace found under configMap in your
	// index: one List, which the cache answers from the index.
	return nil, errNotImplemented(3)
}
