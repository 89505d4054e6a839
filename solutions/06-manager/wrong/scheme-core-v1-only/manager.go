// Wrong (exercise 1): the manager's Scheme gets only core/v1's types (corev1.AddToScheme), not all of client-go's.
// The client can read ConfigMaps and Pods, but not Deployments, Leases or any other kind outside
// core/v1: the first Get or watch of one fails with "no kind is registered", often only once a
// later feature needs that kind.

package managers

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// WatchedLabel marks the ConfigMaps this lesson's manager cares about: its cache holds only
// ConfigMaps labelled WatchedLabel=true.
const WatchedLabel = "lesson06.workshop.local/watched"

// Exercise 1: a Manager for one namespace.
//
// manager.New builds everything a controller needs from one rest.Config: a RESTMapper, a cache
// (informers, lesson 03), a client that reads from that cache and writes to the API server,
// and the servers a Pod needs (metrics, health probes), all typed through one Scheme. Its
// defaults suit one process in one Pod; here they would get in the way:
//
//   - the default Scheme is client-go's global scheme.Scheme, shared by every package of the
//     process: anything one package registers, all see. Give the manager a Scheme of its own
//     that still knows every built-in kind a controller may read (Pods, Deployments, Leases).
//   - the metrics server binds :8080 unless told otherwise. Two learners (or two specs) on one
//     machine would fight over that port. Switch it off. (The health probe server is off
//     already: it serves only when given an address, exercise 5.)
//   - the cache lists and watches every namespace by default. Limit it to namespace.
//   - it caches every ConfigMap. Limit ConfigMaps (and only ConfigMaps) to those labelled
//     WatchedLabel=true; every other kind stays unfiltered within the namespace.
//
// The specs start your manager, then ask its client what it sees.
func NewManager(cfg *rest.Config, namespace string) (manager.Manager, error) {
	// A Scheme of our own, with the core kinds the lesson reads.
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	return manager.New(cfg, manager.Options{
		Scheme:  scheme,
		Metrics: metricsserver.Options{BindAddress: "0"}, // "0" switches it off; "" means :8080
		Cache: cache.Options{
			// Only this namespace is listed and watched, for every kind.
			DefaultNamespaces: map[string]cache.Config{namespace: {}},
			// ConfigMaps are narrowed further, on the server side: the informer's list and
			// watch carry the label selector, so other ConfigMaps never reach this process.
			// SelectorFromSet matches the label's value, not only its presence.
			ByObject: map[client.Object]cache.ByObject{
				&corev1.ConfigMap{}: {Label: labels.SelectorFromSet(labels.Set{WatchedLabel: "true"})},
			},
		},
	})
}
