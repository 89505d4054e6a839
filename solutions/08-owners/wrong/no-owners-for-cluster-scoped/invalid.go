// Wrong (exercise 5): it refuses every owner of a cluster-scoped dependent, cluster-scoped owners included.
// Only a namespaced owner is invalid there: a cluster-scoped object may own another (a CRD owns
// the ClusterRoles made for it, say), and the garbage collector handles that reference.

package owners

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Exercise 5: what an owner reference may not do.
//
// The API server checks an owner reference's fields (apiVersion, kind, name and uid set, the
// apiVersion well formed, no Event as owner, at most one controller), but not that the owner
// exists, nor where it lives. The garbage collector has its own rules, from the fact that an
// owner reference has no namespace field:
//   - a namespaced owner is looked up by name in the dependent's namespace; one in another
//     namespace is "not found" there, and a dependent none of whose owners is found is deleted;
//   - a cluster-scoped dependent has no namespace to look a namespaced owner up in: the
//     reference can never be resolved, and the dependent is never collected;
//   - a cluster-scoped owner (a Namespace, a Node, a CRD) is found from anywhere: it may own
//     namespaced and cluster-scoped dependents alike.
//
// controllerutil.SetControllerReference makes this check before it sets anything; code that
// writes owner references itself (into an apply configuration, say) must make
// it too.

// CheckOwner says whether owner may be named in an owner reference of dependent, from their
// namespaces (a cluster-scoped object has none). It returns nil if it may, or an error that
// wraps ErrCrossNamespace (a namespaced owner in another namespace than a namespaced
// dependent) or ErrClusterScopedDependent (a namespaced owner of a cluster-scoped dependent),
// and names both objects.
func CheckOwner(owner, dependent metav1.Object) error {
	ownerNS, dependentNS := owner.GetNamespace(), dependent.GetNamespace()
	switch {
	case dependentNS == "":
		return fmt.Errorf("%s cannot own %s: %w", describe(owner), describe(dependent), ErrClusterScopedDependent)
	case ownerNS == "":
		return nil // a cluster-scoped owner is found from anywhere
	case dependentNS != ownerNS:
		return fmt.Errorf("%s cannot own %s: %w", describe(owner), describe(dependent), ErrCrossNamespace)
	default:
		return nil
	}
}

// describe names an object for an error message: namespace/name, or name alone.
func describe(obj metav1.Object) string {
	if obj.GetNamespace() == "" {
		return obj.GetName()
	}
	return obj.GetNamespace() + "/" + obj.GetName()
}
