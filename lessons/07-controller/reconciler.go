package mirror

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 1: a level-based, idempotent Reconciler.
//
// A Reconciler is told only *which* object to look at (a reconcile.Request: namespace and
// name), never *what happened* to it. It reads the desired state (the source ConfigMap and its
// annotation), reads the actual state (the mirrors), and writes only the difference. Called
// twice in a row, the second call finds nothing to do and sends no write. That is what lets
// the controller call it again after any event, a restart or a retry: a repeated call leads to
// the same state, and costs only reads.

// MirrorReconciler copies a ConfigMap into the namespaces its MirrorToAnnotation lists.
type MirrorReconciler struct {
	// Client reads and writes ConfigMaps. In a controller it is the manager's client, which
	// reads from the cache and writes to the API server.
	Client client.Client
}

var _ reconcile.Reconciler = &MirrorReconciler{}

// Reconcile makes every namespace listed in the source's MirrorToAnnotation hold a mirror of
// it (see Desired):
//   - a source that does not exist (deleted since the event) ends the reconcile quietly;
//   - a missing mirror is created; a mirror whose data differs from the source is updated;
//     a mirror that already matches is left alone (no write at all);
//   - a ConfigMap of the same name that is not a mirror of this source is left alone;
//   - a target namespace that does not exist is skipped (exercise 3 brings the request back
//     when it appears).
//
// Any other error, on any read or write, is returned, so that the controller retries: only
// NotFound says that something is not there.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	// TODO(exercise 1): read the source named by req (gone: return quietly). For each of its
	// Targets, read what is there and create, update or leave it, so that it holds what
	// Desired(source, namespace) holds. Write only what differs, and keep what others put on a
	// mirror.
	return reconcile.Result{}, errNotImplemented(1)
}
