// Wrong (exercise 1): it updates every mirror on every call, without comparing first.
// The API server stores nothing for an update that changes nothing (no new resourceVersion, no
// watch event), so the cluster looks fine; but each reconcile still sends one write request
// per target, which the API server must decode, admit and compare: with many ConfigMaps and
// resyncs that is a steady load for nothing.

package mirror

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
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
	var source corev1.ConfigMap
	if err := r.Client.Get(ctx, req.NamespacedName, &source); err != nil {
		// Deleted since the event was queued: there is nothing left to mirror.
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	for _, namespace := range Targets(&source) {
		if err := r.mirrorInto(ctx, &source, namespace); err != nil {
			return reconcile.Result{}, err
		}
	}
	return reconcile.Result{}, nil
}

// mirrorInto converges one target namespace: create the mirror, update it, or do nothing.
func (r *MirrorReconciler) mirrorInto(ctx context.Context, source *corev1.ConfigMap, namespace string) error {
	desired := Desired(source, namespace)
	var actual corev1.ConfigMap
	err := r.Client.Get(ctx, client.ObjectKeyFromObject(desired), &actual)
	switch {
	case apierrors.IsNotFound(err):
		err = r.Client.Create(ctx, desired)
		if apierrors.IsNotFound(err) {
			// The namespace itself does not exist (yet).
			log.FromContext(ctx).Info("target namespace not found, skipping it", "namespace", namespace)
			return nil
		}
		return err
	case err != nil:
		return err
	case !IsMirrorOf(&actual, source):
		log.FromContext(ctx).Info("a ConfigMap that is not our mirror is in the way, leaving it alone", "namespace", namespace)
		return nil
	}
	// Update a copy of what we read: it carries the resourceVersion, so a concurrent change
	// makes the update fail with a conflict (and the controller retry) instead of being lost.
	updated := actual.DeepCopy()
	updated.Data, updated.BinaryData = desired.Data, desired.BinaryData
	return r.Client.Update(ctx, updated)
}
