package managers

import (
	"k8s.io/client-go/rest"
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
	// TODO(exercise 1): build the manager with options that narrow each default above: a
	// Scheme of your own that knows all of client-go's built-in kinds, no metrics server, a
	// cache for namespace only, and a label selector for ConfigMaps alone that matches the
	// label's value.
	return nil, errNotImplemented(1)
}
