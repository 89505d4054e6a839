package admission

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
// policies, then CRDs. A kind the server does not serve (MutatingAdmissionPolicy before
// Kubernetes 1.36) is reported in the error and skipped; the others are still swept. It needs
// only a rest.Config, so make cluster calls it as the suites' harness.Connect does. logf
// reports each deletion.
func SweepAbandoned(ctx context.Context, cfg *rest.Config, logf func(format string, args ...any)) error {
	found, listErr := ownedAdmissionObjects(ctx, cfg)
	dead := map[string]bool{}
	var firstErr error
	for _, o := range found {
		isDead, seen := dead[o.owner]
		if !seen {
			isDead = !ownerAlive(o.owner)
			dead[o.owner] = isDead
		}
		if !isDead {
			continue
		}
		if err := o.delete(); err != nil && !apierrors.IsNotFound(err) {
			if firstErr == nil {
				firstErr = fmt.Errorf("delete %s %s: %w", o.kind, o.name, err)
			}
			continue
		}
		logf("deleted %s %s, left by a test run that is gone (owner %s)\n", o.kind, o.name, o.owner)
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

// ownedObject is one admission object with an owner label, and how to delete it.
type ownedObject struct {
	kind, name, owner string
	delete            func() error
}

// ownedAdmissionObjects lists the labelled objects, in the order they must be deleted.
func ownedAdmissionObjects(ctx context.Context, cfg *rest.Config) ([]ownedObject, error) {
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
			name, del := m.GetName(), k.delete
			found = append(found, ownedObject{kind: k.kind, name: name, owner: m.GetLabels()[OwnerLabel],
				delete: func() error { return del(ctx, name, metav1.DeleteOptions{}) }})
		}
	}
	return found, firstErr
}
