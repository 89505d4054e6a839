package operator

import (
	"context"

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
	// TODO(exercise 4): the finalizer first (written to the API server only when it was
	// missing), then this site's key in the directory, written without a read; a directory
	// that is not there yet is created with the entry. The stub does nothing: no finalizer, no
	// entry.
	return nil
}

// finalize cleans up after a site being deleted: if it still has the Finalizer, it removes the
// site's entry from the directory (a directory that is gone has no entry to remove), reports it
// with r.record(site, directory, Unregistered), then removes the Finalizer, which lets the API
// server delete the site.
func (r *StaticSiteReconciler) finalize(ctx context.Context, site *v1alpha1.StaticSite) error {
	// TODO(exercise 4): remove this site's key from the directory (no directory: nothing to
	// remove), and only once that succeeded, let the finalizer go. The stub does nothing.
	return nil
}
