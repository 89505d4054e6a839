package pages

import (
	"context"

	lesson14v1alpha1 "workshop.local/lessons/14-code-generator/pkg/apis/lesson14/v1alpha1"
	"workshop.local/lessons/14-code-generator/pkg/generated/clientset/versioned"
)

// Intent is what one field manager wants of a Page's spec: the fields it sets, and only those
// ("" is a field it does not care about).
type Intent struct {
	Title, Body, Theme string
}

// ApplySpec applies intent to the Page namespace/name as manager, with server-side apply: the
// API server merges it with what other managers applied and records which manager owns which
// field. Without force, setting a field that another manager owns to another value fails with a
// conflict; with force, manager takes the field over.
//
// TODO(exercise 3): build the Page's apply configuration with the generated constructors
// (pkg/generated/applyconfiguration/lesson14/v1alpha1: Page, PageSpec and their With...
// methods), setting only the fields intent sets, and send it with the generated client's Apply,
// with manager as the field manager.
func ApplySpec(ctx context.Context, c versioned.Interface, namespace, name string, intent Intent, manager string, force bool) (*lesson14v1alpha1.Page, error) {
	_, _, _, _, _, _, _ = ctx, c, namespace, name, intent, manager, force
	return nil, errNotImplemented(3)
}

// ApplyStatus applies the Page's status (configMap, observedGeneration) as manager, through the
// status subresource.
//
// TODO(exercise 3): an apply configuration with only the status, sent with ApplyStatus. The
// status is the controller's own report, yet its fields may already be owned by another manager
// (exercise 2's controller writes the same fields with UpdateStatus): should it force?
func ApplyStatus(ctx context.Context, c versioned.Interface, namespace, name, configMap string, generation int64, manager string) (*lesson14v1alpha1.Page, error) {
	_, _, _, _, _, _, _ = ctx, c, namespace, name, configMap, generation, manager
	return nil, errNotImplemented(3)
}
