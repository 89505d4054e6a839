// Wrong (exercise 1): the metrics server is left on its default address, :8080.
// Every manager of the process (and every other program on the machine) that does the same
// fights over port 8080: the second one fails to start. In a workshop, two learners on one
// machine, or two specs in one test process, collide.

package managers

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
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
	// A Scheme of our own: every kind client-go knows, and nothing another package added.
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, err
	}
	return manager.New(cfg, manager.Options{
		Scheme: scheme,
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
