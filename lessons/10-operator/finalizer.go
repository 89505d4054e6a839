package operator

import (
	"context"
)

// Exercise 4: a finalizer, for what the garbage collector cannot clean up.
//
// Each site has an entry in the shared site directory, a ConfigMap in another namespace that no
// site owns: an owner reference cannot point across namespaces, and the entry is a key, not an
// object. When a site is deleted, nothing but this controller will remove its entry. A
// finalizer is the promise: while a StaticSite's metadata.finalizers holds Finalizer, a delete
// only sets its deletionTimestamp (and bumps its generation); the object stays until the
// controller has cleaned up and removed the finalizer.

// ensureRegistered gives site the Finalizer (first, so an entry never exists without it), then
// writes its entry (DirectoryKey: SiteURL) into the directory ConfigMap r.Directory, creating
// that ConfigMap if it is missing. The directory's namespace is not in the manager's cache:
// write it without reading it. It reports a new registration (the finalizer was just added)
// with r.record(site, directory, Registered).
func (r *StaticSiteReconciler) ensureRegistered(ctx context.Context, site *StaticSite) error {
	// TODO(exercise 4): controllerutil.AddFinalizer and r.Client.Update when it was missing;
	// then a JSON merge patch of the directory's data (client.RawPatch), or Create when the
	// directory is not there. The stub registers nothing, so a deleted site leaves its entry.
	return nil
}

// finalize cleans up after a site being deleted: if it still has the Finalizer, it removes the
// site's entry from the directory (a directory that is gone has no entry to remove), reports it
// with r.record(site, directory, Unregistered), then removes the Finalizer, which lets the API
// server delete the site.
func (r *StaticSiteReconciler) finalize(ctx context.Context, site *StaticSite) error {
	// TODO(exercise 4): remove the entry (a merge patch setting the key to null), then
	// controllerutil.RemoveFinalizer and r.Client.Update. The stub does nothing.
	return nil
}
