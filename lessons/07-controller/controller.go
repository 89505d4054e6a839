package mirror

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// This file needs no edits. It is the mirror controller put together from the exercises, top to
// bottom in the order a program's main would write it, the way sample-controller's
// controller.go reads: what one reconcile does, the controller that runs it, and each source of
// work it listens to. Lesson 09 builds the same kind of wiring with the Builder in a few lines.
//
//	ConfigMap events ─┐ (exercise 2: WantsMirror drops the rest)
//	Namespace created ─┼─► the controller's queue ─► workers ─► MirrorReconciler (exercise 1)
//	pings from outside ┘   (exercise 3: the map function; exercise 4: source.Channel)
//
// Exercise 5 (Classify, MirrorOptions) decides what a reconcile's result does and how failures
// are retried; a production main would pass MirrorOptions where NewMirrorController passes the
// default options.

// SetupMirror adds the mirror controller to mgr: a reconciler that uses the manager's client,
// the controller that calls it on ConfigMap events, the Namespace watch that brings back the
// sources waiting for a namespace, and the pings channel. The manager starts it all with
// mgr.Start; ctx is for registering the cache index the Namespace watch needs.
func SetupMirror(ctx context.Context, mgr manager.Manager, pings <-chan event.TypedGenericEvent[Ping]) error {
	// What to do for one ConfigMap, whatever happened to it: read it, then make every target
	// namespace hold its mirror (exercise 1). The manager's client reads from its cache.
	reconciler := &MirrorReconciler{Client: mgr.GetClient()}

	// A controller that calls the reconciler, fed by the ConfigMap events WantsMirror lets
	// through: each one enqueues its own ConfigMap (exercise 2).
	c, err := NewMirrorController(mgr, reconciler)
	if err != nil {
		return err
	}

	// A namespace created after a source named it: enqueue the sources waiting for it, found
	// through the cache's index of targets (exercise 3).
	if err := WatchNamespaces(ctx, mgr, c); err != nil {
		return err
	}

	// Pings from outside the cluster: each enqueues the source it names (exercise 4).
	return WatchPings(c, pings)
}
