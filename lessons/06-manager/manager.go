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
// manager.New builds everything a controller needs from one rest.Config: a Scheme, a
// RESTMapper, a cache (informers, lesson 03), a client that reads from that cache and writes
// to the API server, and the servers a Pod needs (metrics, health probes). Its defaults suit
// one process in one Pod; here they would get in the way:
//
//   - the default Scheme is client-go's global scheme.Scheme, shared by every package of the
//     process: anything one package registers, all see. Give the manager a Scheme of its own.
//   - the metrics server binds :8080 by default. Two learners (or two specs) on one machine
//     would fight over that port. Switch it off ("0"), and the health probe server too.
//   - the cache lists and watches every namespace by default. Limit it to namespace.
//   - it caches every ConfigMap. Limit ConfigMaps (and only ConfigMaps) to those labelled
//     WatchedLabel=true; every other kind stays unfiltered within the namespace.
//
// The specs start your manager, then ask its client what it sees.
func NewManager(cfg *rest.Config, namespace string) (manager.Manager, error) {
	// TODO(exercise 1):
	//  1. scheme := runtime.NewScheme(), then clientgoscheme.AddToScheme(scheme)
	//     (clientgoscheme "k8s.io/client-go/kubernetes/scheme").
	//  2. manager.New(cfg, manager.Options{...}) with Scheme, Metrics (metricsserver.Options
	//     from sigs.k8s.io/controller-runtime/pkg/metrics/server), HealthProbeBindAddress, and
	//     Cache: a cache.Options (sigs.k8s.io/controller-runtime/pkg/cache) whose
	//     DefaultNamespaces holds namespace, and whose ByObject gives &corev1.ConfigMap{} a
	//     Label selector (labels.SelectorFromSet from k8s.io/apimachinery/pkg/labels).
	return nil, errNotImplemented(1)
}
