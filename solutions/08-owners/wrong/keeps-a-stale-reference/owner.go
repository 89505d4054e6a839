// Wrong (exercise 1): it returns early when a reference with the site's uid is already there, without bringing it up to date.
// A plain reference stays plain, so the site never becomes the controller (OnlyControllerOwner
// watches ignore the child), and a reference with an apiVersion the API server no longer serves
// stays: the garbage collector and EnqueueRequestForOwner cannot map it, so neither follows it.

package owners

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Exercise 1: a controller reference from a child to its Website, built by hand.
//
// An owner reference, in a child's metadata.ownerReferences, names its owner by apiVersion,
// kind, name and uid (never by namespace: a namespaced owner is looked up in the child's own
// namespace). Two flags say more:
//   - controller: true makes the owner the child's *controller*, the one object that manages
//     it. A child has at most one (the API server refuses a second), and owner watches with
//     OnlyControllerOwner (exercise 3) follow only that one.
//   - blockOwnerDeletion: true makes a foreground deletion of the owner wait for this child
//     (exercise 4).
//
// The garbage collector reads these references: it looks an owner up by name and compares its
// uid, and when no owner of a child exists any more, it deletes the child. So the uid is what
// says "this very Website": one deleted and created again under the same name is another owner.
//
// controllerutil.SetControllerReference writes such a reference, but it decides "is this the
// same owner?" by group, kind and name, not by uid. Own decides by uid, as Kubernetes' own
// controllers do when they adopt children, so you write it yourself.

// Own makes site the controller of child, deciding by uid what to do with the references the
// child already has:
//   - a controller reference with another uid (another Website, a ReplicaSet, or an older
//     Website of the same name) is someone else's child: Own returns a
//     *controllerutil.AlreadyOwnedError naming that reference, and leaves child unchanged;
//   - a reference with the site's uid is the site's own, perhaps stale (another apiVersion, a
//     flag missing, or a plain reference): Own replaces it, so one reference to the site stays;
//   - every other reference stays as it is;
//   - otherwise Own adds one reference to the site.
//
// The reference Own writes has the site's apiVersion and kind as scheme knows them (scheme's
// error if it does not know Websites), its name and uid, controller: true and
// blockOwnerDeletion: true. A site without a uid is refused with an error wrapping ErrNoUID.
// Any error leaves child unchanged.
func Own(scheme *runtime.Scheme, site *Website, child client.Object) error {
	if site.UID == "" {
		return fmt.Errorf("website %s/%s cannot own %s: %w", site.Namespace, site.Name, child.GetName(), ErrNoUID)
	}
	// The scheme, not site.TypeMeta: a Website read through a direct client (or built in Go)
	// has an empty TypeMeta, and the scheme knows which kind a *Website is either way.
	gvk, err := apiutil.GVKForObject(site, scheme)
	if err != nil {
		return err
	}
	// Someone else's child: its controller is another object, even if it has the same name.
	if current := metav1.GetControllerOf(child); current != nil && current.UID != site.UID {
		return &controllerutil.AlreadyOwnedError{Object: child, Owner: *current}
	}

	ref := metav1.OwnerReference{
		APIVersion:         gvk.GroupVersion().String(),
		Kind:               gvk.Kind,
		Name:               site.Name,
		UID:                site.UID,
		Controller:         new(true),
		BlockOwnerDeletion: new(true),
	}
	// A copy, so that nothing of child changes before SetOwnerReferences.
	refs := slices.Clone(child.GetOwnerReferences())
	if i := slices.IndexFunc(refs, func(r metav1.OwnerReference) bool { return r.UID == site.UID }); i >= 0 {
		return nil // the site owns it already
	}
	refs = append(refs, ref)
	child.SetOwnerReferences(refs)
	return nil
}
