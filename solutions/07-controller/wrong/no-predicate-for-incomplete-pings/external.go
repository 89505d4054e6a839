// Wrong (exercise 4): it enqueues every ping, even one without a namespace or a name.
// A request with an empty name or namespace names no object: at best a reconcile spent on
// nothing, at worst one that fails and is retried for ever. Input from outside the cluster must
// be checked before it reaches the queue.

package mirror

import (
	"context"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
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
	toRequest := func(_ context.Context, p Ping) []reconcile.Request {
		return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: p.Namespace, Name: p.Name}}}
	}
	complete := predicate.NewTypedPredicateFuncs(func(p Ping) bool { return p.Namespace != "" && p.Name != "" })
	_ = complete
	return c.Watch(source.Channel(pings, handler.TypedEnqueueRequestsFromMapFunc(toRequest)))
}
