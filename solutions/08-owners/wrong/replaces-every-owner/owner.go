// Wrong (exercise 1): it sets the child's owner references to the site's reference alone.
// Whatever owned the child before is dropped without a word: another owner's reference (so the
// garbage collector forgets that owner), and another controller's, which takes the child over
// instead of reporting it: two controllers then fight over one object.

package owners

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// Exercise 1: a controller reference from a child to its Website.
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
// The garbage collector reads these references: when every owner of a child is gone, it
// deletes the child.

// Own makes site the controller of child: it adds (or refreshes) one owner reference to site
// with the site's apiVersion and kind as scheme knows them, its name and uid, controller: true
// and blockOwnerDeletion: true. The child's other owner references stay.
//
// A child that already has a controller other than site is not taken over: Own returns a
// *controllerutil.AlreadyOwnedError naming the current controller, and leaves child unchanged.
// Owning a child twice leaves one reference.
func Own(scheme *runtime.Scheme, site *Website, child client.Object) error {
	// The site's TypeMeta is empty (a typed object read through a client has no apiVersion and
	// kind): SetControllerReference asks the scheme which kind a *Website is.
	gvk, err := apiutil.GVKForObject(site, scheme)
	if err != nil {
		return err
	}
	child.SetOwnerReferences([]metav1.OwnerReference{{
		APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Name: site.Name, UID: site.UID,
		Controller: new(true), BlockOwnerDeletion: new(true),
	}})
	return nil
}
