package mirror

import (
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
)

// Exercise 4: triggers from outside the cluster.
//
// Not every reason to reconcile is a change in the cluster: a webhook says the upstream copy of
// a configuration changed, a timer says it is time to check again. source.Channel turns a Go
// channel of generic events into a source, so such triggers go through the same queue as
// everything else: deduplicated, rate-limited on retry, never two workers on one key.

// Ping is what the outside world sends: "the source ConfigMap Namespace/Name may be out of
// date". It is not a Kubernetes object; a source.Channel carries any type.
type Ping struct {
	Namespace, Name string
}

// WatchPings makes c reconcile the ConfigMap each Ping names. A Ping without a namespace or a
// name is dropped by a predicate: there is no object to reconcile.
func WatchPings(c controller.Controller, pings <-chan event.TypedGenericEvent[Ping]) error {
	// TODO(exercise 4): make c watch the channel: each Ping becomes the request for the
	// ConfigMap it names, and incomplete pings are dropped before they reach the queue.
	return errNotImplemented(4)
}
