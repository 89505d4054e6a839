// Wrong (exercise 4): it makes the delete conditional on the resourceVersion it read instead of the uid.
// Any write to the Website since it was read (a label, an annotation, the controller's own
// status) makes the API server refuse the delete with a Conflict: the caller gets errors for a
// Website that is exactly the one it meant, and a busy object may never be deleted.

package owners

import (
	"context"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Exercise 4: cascading deletion, done by the garbage collector.
//
// A DELETE request may say what should happen to the object's dependents (its
// propagationPolicy). The API server deletes no dependent itself: for Foreground and Orphan it
// records the choice as a finalizer on the owner, and for Background it adds none. The garbage
// collector in kube-controller-manager does the rest:
//   - Background: the owner is deleted at once (unless other finalizers hold it); the garbage
//     collector then deletes the dependents whose owners are all gone (and their dependents,
//     and so on).
//   - Foreground: the owner gets a deletionTimestamp and the "foregroundDeletion" finalizer,
//     and stays, visible, until the garbage collector has deleted every dependent that blocks
//     it (blockOwnerDeletion: true); then the finalizer goes, and the owner with it.
//   - Orphan: the owner gets the "orphan" finalizer; the garbage collector removes the owner's
//     reference from every dependent, then the finalizer; the dependents stay.

// Cascade is what to do with a Website's children when it is deleted, in kubectl's words
// (kubectl delete --cascade=background|foreground|orphan).
type Cascade string

// The three cascades.
const (
	CascadeBackground Cascade = "background"
	CascadeForeground Cascade = "foreground"
	CascadeOrphan     Cascade = "orphan"
)

// DeleteWebsite deletes site with the propagation policy cascade names. It deletes only that
// very Website: if the Website under that name is another one by now (deleted and created
// again, so another uid), the API server refuses, with a Conflict. The same Website changed
// since it was read (a label, a status) is still that Website, and is deleted. An unknown
// cascade is an error, and nothing is sent.
func DeleteWebsite(ctx context.Context, c client.Client, site *Website, cascade Cascade) error {
	var policy metav1.DeletionPropagation
	switch cascade {
	case CascadeBackground:
		policy = metav1.DeletePropagationBackground
	case CascadeForeground:
		policy = metav1.DeletePropagationForeground
	case CascadeOrphan:
		policy = metav1.DeletePropagationOrphan
	default:
		return fmt.Errorf("unknown cascade %q: want %q, %q or %q", cascade, CascadeBackground, CascadeForeground, CascadeOrphan)
	}
	// The resourceVersion precondition: only the Website exactly as it was read.
	rv := site.ResourceVersion
	return c.Delete(ctx, site, client.PropagationPolicy(policy), client.Preconditions{ResourceVersion: &rv})
}

// DeletionState says how far a Website's deletion has come, from what the API server and the
// garbage collector wrote in its metadata.
type DeletionState string

// The deletion states DeletionStateOf reports.
const (
	// Live: not being deleted (no deletionTimestamp), whatever its finalizers.
	Live DeletionState = "live"
	// WaitingForDependents: being deleted in the foreground; the garbage collector is deleting
	// its dependents, and it stays until they are gone.
	WaitingForDependents DeletionState = "waiting for its dependents"
	// OrphaningDependents: being deleted with the orphan policy; the garbage collector is
	// removing its owner reference from its dependents.
	OrphaningDependents DeletionState = "orphaning its dependents"
	// Terminating: being deleted, and waiting only for other finalizers (not the garbage
	// collector's).
	Terminating DeletionState = "terminating"
)

// DeletionStateOf reads site's deletion state from its deletionTimestamp and finalizers.
func DeletionStateOf(site *Website) DeletionState {
	switch {
	case site.DeletionTimestamp == nil:
		// Finalizers on a live object are only promises: nothing happens until it is deleted.
		return Live
	case slices.Contains(site.Finalizers, metav1.FinalizerDeleteDependents):
		return WaitingForDependents
	case slices.Contains(site.Finalizers, metav1.FinalizerOrphanDependents):
		return OrphaningDependents
	default:
		return Terminating
	}
}
