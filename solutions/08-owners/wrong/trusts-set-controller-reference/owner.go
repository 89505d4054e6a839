// Wrong (exercise 1): it hands the decision to controllerutil.SetControllerReference, which matches an existing reference by group, kind and name, not by uid.
// A child still controlled by an older Website of the same name, one the garbage collector is
// about to delete with it, is not reported: its reference's uid is rewritten to the new site's,
// and a child the user's deletion meant to remove lives on under a Website that never made it.

package owners

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
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
	// SetControllerReference takes the kind from the scheme, reports another controller, and
	// refreshes a reference to the same site.
	return controllerutil.SetControllerReference(site, child, scheme)
}
