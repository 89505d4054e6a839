package operator

import (
	"context"
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"workshop.local/lessons/10-operator/api/v1alpha1"
)

// Exercise 2: the children, owned and idempotent (lesson 08, now in your own operator).
//
// A reconciler is called again and again for the same site: after each change of its spec,
// of a child, and after every failure. Each call must leave the children as they should be and
// write nothing when they already are. controllerutil.CreateOrUpdate reads the object, lets a
// function set the fields this controller owns, and writes only if that changed something. A
// controller reference on each child (SetControllerReference) brings the child's events back to
// this site (Owns in SetupWithManager) and lets the garbage collector delete the children with
// the site.

// ensureChildren makes site's page ConfigMap, Deployment and, for exposure Service, Service
// what DesiredPage, DesiredDeployment and DesiredService say, each controlled by site and
// carrying the site's labels beside its own, and deletes the Service of a site whose exposure
// is None. It reports each child it created, updated or deleted with r.record (exercise 5),
// and returns the Deployment as the API server has it, for the status (exercise 3).
func (r *StaticSiteReconciler) ensureChildren(ctx context.Context, site *v1alpha1.StaticSite) (*appsv1.Deployment, error) {
	desiredPage := DesiredPage(site)
	page := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: desiredPage.Name}}
	if err := r.ensure(ctx, site, page, func() {
		page.Data = desiredPage.Data // the page is all this controller's
	}); err != nil {
		return nil, err
	}
	desired := DesiredDeployment(site)
	deployment := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: desired.Name}}
	if err := r.ensure(ctx, site, deployment, func() {
		deployment.Spec.Replicas = desired.Spec.Replicas
		// The selector cannot change after creation, and the API server fills in defaults in
		// the template (dnsPolicy, terminationMessagePath...) that ours lacks: both are set
		// once, when the Deployment is made.
		if deployment.CreationTimestamp.IsZero() {
			deployment.Spec.Selector = desired.Spec.Selector
			deployment.Spec.Template = desired.Spec.Template
		}
	}); err != nil {
		return nil, err
	}
	return deployment, r.ensureService(ctx, site)
}

// ensureService makes the Service of an exposed site, or deletes the one a site no longer
// wants.
func (r *StaticSiteReconciler) ensureService(ctx context.Context, site *v1alpha1.StaticSite) error {
	desired := DesiredService(site)
	service := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: desired.Name}}
	if site.Spec.Exposure == v1alpha1.ExposureNone {
		err := r.Client.Get(ctx, client.ObjectKeyFromObject(service), service)
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil || !metav1.IsControlledBy(service, site) {
			return err // never delete a Service this site does not control
		}
		if err := r.Client.Delete(ctx, service); client.IgnoreNotFound(err) != nil {
			return err
		}
		r.record(site, service, Deleted)
		return nil
	}
	return r.ensure(ctx, site, service, func() {
		service.Spec.Selector = desired.Spec.Selector // without it, the Service sends traffic nowhere
		service.Spec.Ports = desired.Spec.Ports       // the API server fills in ClusterIP and the rest
	})
}

// ensure creates or updates child: set changes the fields this controller owns, every child
// gets the site's labels (added to those other tools put there, not replacing them), and site
// as its controller.
func (r *StaticSiteReconciler) ensure(ctx context.Context, site *v1alpha1.StaticSite, child client.Object, set func()) error {
	result, err := controllerutil.CreateOrUpdate(ctx, r.Client, child, func() error {
		child.SetLabels(withLabels(child.GetLabels(), labels(site)))
		set()
		return controllerutil.SetControllerReference(site, child, r.Client.Scheme())
	})
	switch result {
	case controllerutil.OperationResultCreated:
		r.record(site, child, Created)
	case controllerutil.OperationResultUpdated:
		r.record(site, child, Updated)
	}
	return err
}

// withLabels returns existing with want added: a child's other labels are someone else's.
func withLabels(existing, want map[string]string) map[string]string {
	merged := maps.Clone(existing)
	if merged == nil {
		merged = map[string]string{}
	}
	maps.Copy(merged, want)
	return merged
}
