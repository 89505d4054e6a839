package operator

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"workshop.local/lessons/10-operator/api/v1alpha1"
)

// Exercise 4: a finalizer, for what the garbage collector cannot clean up.
//
// Each site has an entry in the shared site directory, a ConfigMap in another namespace that no
// site owns: an owner reference has no namespace (the garbage collector looks an owner up in
// the namespace of its dependent), and the entry is a key, not an object. When a site is
// deleted, nothing but this controller will remove its entry. A finalizer is the promise: while
// a StaticSite's metadata.finalizers holds Finalizer, a delete marks it (sets its
// deletionTimestamp, bumps its generation) instead of removing it; the object stays until the
// controller has cleaned up and removed the finalizer.
//
// Every site's reconcile writes the same directory, maybe at the same moment. A read-modify-
// write (Get, change the data, Update) would need a copy of it: r.Client reads from the
// manager's cache, which in the specs does not hold the directory's namespace at all, and which
// under `make run` holds a copy that may be a moment old, so the Update fails with a Conflict
// whenever another site wrote the directory in between. A JSON merge patch that names only this
// site's key needs no copy: the API server applies it to the directory as it is when the patch
// arrives, and leaves the other keys alone.

// ensureRegistered gives site the Finalizer (first, so an entry never exists without it), then
// writes its entry (DirectoryKey: SiteURL) into the directory ConfigMap r.Directory, without
// reading the directory first, creating that ConfigMap if it is missing. It reports a new
// registration (the finalizer was just added) with r.record(site, directory, Registered).
func (r *StaticSiteReconciler) ensureRegistered(ctx context.Context, site *v1alpha1.StaticSite) error {
	added := controllerutil.AddFinalizer(site, Finalizer)
	if added {
		if err := r.Client.Update(ctx, site); err != nil {
			return err
		}
	}
	directory, err := r.patchDirectory(ctx, DirectoryKey(site), ptrTo(SiteURL(site)))
	if apierrors.IsNotFound(err) {
		directory = &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: r.Directory.Namespace, Name: r.Directory.Name},
			Data:       map[string]string{DirectoryKey(site): SiteURL(site)},
		}
		err = r.Client.Create(ctx, directory) // AlreadyExists (another site was first): retried
	}
	if err == nil && added {
		r.record(site, directory, Registered)
	}
	return err
}

// finalize cleans up after a site being deleted: if it still has the Finalizer, it removes the
// site's entry from the directory (a directory that is gone has no entry to remove), reports it
// with r.record(site, directory, Unregistered), then removes the Finalizer, which lets the API
// server delete the site.
func (r *StaticSiteReconciler) finalize(ctx context.Context, site *v1alpha1.StaticSite) error {
	if !controllerutil.ContainsFinalizer(site, Finalizer) {
		return nil
	}
	directory, err := r.patchDirectory(ctx, DirectoryKey(site), nil)
	switch {
	case apierrors.IsNotFound(err): // no directory, so no entry: the goal is reached
	case err != nil:
		return err // the finalizer stays, and the clean-up is retried
	default:
		r.record(site, directory, Unregistered)
	}
	controllerutil.RemoveFinalizer(site, Finalizer)
	return r.Client.Update(ctx, site)
}

// patchDirectory sets key to *value in the directory's data, or removes it when value is nil,
// with a JSON merge patch: no read first, and no conflict with other sites' keys.
func (r *StaticSiteReconciler) patchDirectory(ctx context.Context, key string, value *string) (*corev1.ConfigMap, error) {
	patch, err := json.Marshal(map[string]any{"data": map[string]*string{key: value}})
	if err != nil {
		return nil, err
	}
	directory := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: r.Directory.Namespace, Name: r.Directory.Name}}
	return directory, r.Client.Patch(ctx, directory, client.RawPatch(types.MergePatchType, patch))
}

func ptrTo(s string) *string { return &s }
