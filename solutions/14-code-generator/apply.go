package pages

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	lesson14v1alpha1 "workshop.local/lessons/14-code-generator/pkg/apis/lesson14/v1alpha1"
	pageapply "workshop.local/lessons/14-code-generator/pkg/generated/applyconfiguration/lesson14/v1alpha1"
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
func ApplySpec(ctx context.Context, c versioned.Interface, namespace, name string, intent Intent, manager string, force bool) (*lesson14v1alpha1.Page, error) {
	spec := pageapply.PageSpec()
	if intent.Title != "" {
		spec.WithTitle(intent.Title)
	}
	if intent.Body != "" {
		spec.WithBody(intent.Body)
	}
	if intent.Theme != "" {
		spec.WithTheme(intent.Theme)
	}
	page := pageapply.Page(name, namespace).WithSpec(spec)
	return c.Lesson14V1alpha1().Pages(namespace).Apply(ctx, page, metav1.ApplyOptions{FieldManager: manager, Force: force})
}

// ApplyStatus applies the Page's status as manager, through the status subresource. A
// controller forces here. The status is its report of what it did, with no other writer's
// opinion to respect, yet its fields may be owned by another manager: whoever wrote them
// before, with an apply under another manager name or with UpdateStatus (exercise 2's
// controller writes these same fields that way: an Update operation, whose manager then owns
// them). An apply that sets a field another manager owns to another value is refused with a
// conflict, whatever operation that manager used, and a controller cannot settle that conflict
// otherwise than by writing its report anyway.
func ApplyStatus(ctx context.Context, c versioned.Interface, namespace, name, configMap string, generation int64, manager string) (*lesson14v1alpha1.Page, error) {
	status := pageapply.PageStatus().WithConfigMap(configMap).WithObservedGeneration(generation)
	page := pageapply.Page(name, namespace).WithStatus(status)
	return c.Lesson14V1alpha1().Pages(namespace).ApplyStatus(ctx, page, metav1.ApplyOptions{FieldManager: manager, Force: true})
}
