// Wrong (exercise 3): the index is registered under the path of the field it reads, not under UsesConfigMapField.
// A List asks an index by name: MatchingFields{UsesConfigMapField: ...} finds no index called
// that and fails, while the index registered under "spec.volumes.configMap.name" is never
// asked. The name in IndexField and in MatchingFields must be the same string.

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
	return mgr.GetFieldIndexer().IndexField(ctx, &corev1.Pod{}, "spec.volumes.configMap.name", func(obj client.Object) []string {
		return configMapsUsedBy(obj.(*corev1.Pod))
	})
}

// configMapsUsedBy returns the names of the ConfigMaps a Pod's volumes and containers use.
// A name may appear twice; the index keeps the Pod once under it. Most references are nil
// pointers (a volume of another kind, a variable with a plain value): check before following.
func configMapsUsedBy(pod *corev1.Pod) []string {
	var names []string
	for _, v := range pod.Spec.Volumes {
		if v.ConfigMap != nil {
			names = append(names, v.ConfigMap.Name)
		}
	}
	for _, c := range pod.Spec.Containers {
		for _, from := range c.EnvFrom {
			if from.ConfigMapRef != nil {
				names = append(names, from.ConfigMapRef.Name)
			}
		}
		for _, env := range c.Env {
			if env.ValueFrom != nil && env.ValueFrom.ConfigMapKeyRef != nil {
				names = append(names, env.ValueFrom.ConfigMapKeyRef.Name)
			}
		}
	}
	return names
}

// Exercise 3b: the Pods of one namespace that use a ConfigMap, answered from the cache's index.
// A controller that reacts to ConfigMap changes asks this to find the Pods to act on. When the
// reader cannot answer (no such index, a cache not started), say so: "no Pods" would be a
// wrong answer that nobody notices.
func PodsUsingConfigMap(ctx context.Context, reader client.Reader, namespace, configMap string) ([]corev1.Pod, error) {
	var pods corev1.PodList
	err := reader.List(ctx, &pods, client.InNamespace(namespace), client.MatchingFields{UsesConfigMapField: configMap})
	if err != nil {
		return nil, err
	}
	return pods.Items, nil
}
