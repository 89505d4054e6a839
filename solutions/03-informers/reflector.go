package informers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// Exercise 1a: a ListWatch for the ConfigMaps of one namespace.
//
// A ListWatch is a pair of functions. List returns every object of the collection and the
// resourceVersion of that snapshot; Watch streams every change that happens after a given
// resourceVersion. A List followed by a Watch from the list's resourceVersion copies a
// collection and then follows it, without missing a change and without seeing one twice.
//
// The Reflector calls these functions with the ListOptions it needs (resourceVersion, page
// size, bookmarks, a streamed initial list...): pass them on untouched.
func ConfigMapListWatch(client kubernetes.Interface, namespace string) *cache.ListWatch {
	configMaps := client.CoreV1().ConfigMaps(namespace)
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
			return configMaps.List(ctx, options)
		},
		WatchFuncWithContext: func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
			return configMaps.Watch(ctx, options)
		},
	}
}

// Exercise 1b: start a Reflector that keeps store equal to the ConfigMaps of namespace.
//
// A Reflector lists, hands the whole list to store.Replace, then watches from the list's
// resourceVersion and calls store.Add, Update or Delete for each event. (By default, where the
// server allows it, the list comes as a stream over a watch: still one Replace.) When a watch
// ends it watches again from the last resourceVersion it saw, and lists again if the server
// has forgotten that version. It runs until ctx is cancelled, so start it in a goroutine.
func StartConfigMapReflector(ctx context.Context, client kubernetes.Interface, namespace string, store cache.Store) (*cache.Reflector, error) {
	// The example object tells the Reflector which type to expect: it refuses a watch event of any
	// other type.
	reflector := cache.NewReflectorWithOptions(ConfigMapListWatch(client, namespace), &corev1.ConfigMap{}, store,
		cache.ReflectorOptions{Name: "configmaps of " + namespace})
	go reflector.RunWithContext(ctx)
	return reflector, nil
}
