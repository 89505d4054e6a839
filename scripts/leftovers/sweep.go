package leftovers

import (
	"context"
	"fmt"

	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// SweepAbandoned deletes every object labelled OwnerLabel whose owner process is gone: webhook
// configurations and admission policy bindings first (they are what blocks writes), then
// policies, then CRDs, then namespaces (a webhook left behind could block their deletion). A
// kind the server does not serve (MutatingAdmissionPolicy before Kubernetes 1.36) is reported
// in the error and skipped; the others are still swept. It needs only a rest.Config, so make
// cluster calls it as the suites' harness.Connect does. logf reports each deletion.
func SweepAbandoned(ctx context.Context, cfg *rest.Config, logf func(format string, args ...any)) error {
	found, listErr := ownedObjects(ctx, cfg)
	dead := map[string]bool{}
	var firstErr error
	for _, o := range found {
		if o.Deleting {
			continue // already on its way out
		}
		isDead, seen := dead[o.Owner]
		if !seen {
			isDead = !ownerAlive(o.Owner)
			dead[o.Owner] = isDead
		}
		if !isDead {
			continue
		}
		if err := o.delete(); err != nil && !apierrors.IsNotFound(err) {
			if firstErr == nil {
				firstErr = fmt.Errorf("delete %s %s: %w", o.Kind, o.Name, err)
			}
			continue
		}
		logf("deleted %s %s, left by a test run that is gone (owner %s)\n", o.Kind, o.Name, o.Owner)
	}
	for owner, isDead := range dead {
		if isDead {
			forgetOwner(owner)
		}
	}
	pruneOwnerLocks()
	if firstErr == nil {
		firstErr = listErr
	}
	return firstErr
}

// Object is an object a test process made and labelled as its own (OwnerLabel).
type Object struct {
	Kind, Name, Owner string
	Deleting          bool // its deletion has begun (a namespace that is terminating)
}

// Owned lists every object labelled OwnerLabel, those on their way out included: a proof that a
// stopped run left nothing looks for its owner's.
func Owned(ctx context.Context, cfg *rest.Config) ([]Object, error) {
	found, err := ownedObjects(ctx, cfg)
	objects := make([]Object, len(found))
	for i, o := range found {
		objects[i] = o.Object
	}
	return objects, err
}

// ownedObject is one object with an owner label, and how to delete it.
type ownedObject struct {
	Object
	delete func() error
}

// ownedObjects lists the labelled objects, in the order they must be deleted.
func ownedObjects(ctx context.Context, cfg *rest.Config) ([]ownedObject, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	crds, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ar := cs.AdmissionregistrationV1()
	opts := metav1.ListOptions{LabelSelector: OwnerLabel}
	type deleteFunc func(context.Context, string, metav1.DeleteOptions) error
	kinds := []struct {
		kind   string
		list   func() (runtime.Object, error)
		delete deleteFunc
	}{
		{"MutatingWebhookConfiguration", func() (runtime.Object, error) { return ar.MutatingWebhookConfigurations().List(ctx, opts) }, ar.MutatingWebhookConfigurations().Delete},
		{"ValidatingWebhookConfiguration", func() (runtime.Object, error) { return ar.ValidatingWebhookConfigurations().List(ctx, opts) }, ar.ValidatingWebhookConfigurations().Delete},
		{"ValidatingAdmissionPolicyBinding", func() (runtime.Object, error) { return ar.ValidatingAdmissionPolicyBindings().List(ctx, opts) }, ar.ValidatingAdmissionPolicyBindings().Delete},
		{"MutatingAdmissionPolicyBinding", func() (runtime.Object, error) { return ar.MutatingAdmissionPolicyBindings().List(ctx, opts) }, ar.MutatingAdmissionPolicyBindings().Delete},
		{"ValidatingAdmissionPolicy", func() (runtime.Object, error) { return ar.ValidatingAdmissionPolicies().List(ctx, opts) }, ar.ValidatingAdmissionPolicies().Delete},
		{"MutatingAdmissionPolicy", func() (runtime.Object, error) { return ar.MutatingAdmissionPolicies().List(ctx, opts) }, ar.MutatingAdmissionPolicies().Delete},
		{"CustomResourceDefinition", func() (runtime.Object, error) {
			return crds.ApiextensionsV1().CustomResourceDefinitions().List(ctx, opts)
		}, crds.ApiextensionsV1().CustomResourceDefinitions().Delete},
		{"Namespace", func() (runtime.Object, error) { return cs.CoreV1().Namespaces().List(ctx, opts) }, cs.CoreV1().Namespaces().Delete},
	}
	var found []ownedObject
	var firstErr error
	for _, k := range kinds {
		list, err := k.list()
		var items []runtime.Object
		if err == nil {
			items, err = meta.ExtractList(list)
		}
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("list %ss: %w", k.kind, err)
			}
			continue
		}
		for _, item := range items {
			m, err := meta.Accessor(item)
			if err != nil {
				continue
			}
			name, del, owner := m.GetName(), k.delete, m.GetLabels()[OwnerLabel]
			found = append(found, ownedObject{
				Object: Object{Kind: k.kind, Name: name, Owner: owner, Deleting: m.GetDeletionTimestamp() != nil},
				delete: func() error { return del(ctx, name, metav1.DeleteOptions{}) }})
		}
	}
	return found, firstErr
}
