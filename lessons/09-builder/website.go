package sites

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The Website domain: what a site's children should be, and the reconciler that makes them so.
// It needs no edits: this lesson is about how events reach a reconciler, not what it does. (Lesson
// 08 is about owner references and create-or-update themselves.)

// SettingsName is the name of the ConfigMap of site-wide settings in a namespace: its "footer"
// goes at the bottom of every Website's page in that namespace.
const SettingsName = "site-settings"

// SiteLabel is on every child of a Website, with the site's name as its value.
const SiteLabel = "lesson09.workshop.local/site"

// Image is the web server image. No registry serves it: on the embedded local cluster, the
// hollow node's fake container runtime "pulls" and "runs" it without a registry and the pods
// become ready; on kind, the node tries to pull it and the pods never become ready. Nothing in
// this lesson waits for a ready pod.
const Image = "registry.invalid/web:1"

// PageName is the name of a Website's page ConfigMap.
func PageName(site *Website) string { return site.Name + "-page" }

// IsSettings says whether obj is a namespace's settings ConfigMap. It reads only metadata, so
// it works on a *corev1.ConfigMap and on a *metav1.PartialObjectMetadata alike.
func IsSettings(obj client.Object) bool { return obj.GetName() == SettingsName }

// SitesInNamespace is the map function from a settings ConfigMap to every Website in its
// namespace: new settings change every page. It lists Websites from reader, which should be the
// manager's client (its cache): a map function runs for every event of its watch (twice for an
// update: on the old and on the new object), and through the API reader each run would be one
// more LIST request to the API server. It reads only obj's
// namespace, so it works on metadata-only events too.
func SitesInNamespace(reader client.Reader) handler.MapFunc {
	return func(ctx context.Context, obj client.Object) []reconcile.Request {
		var list WebsiteList
		if err := reader.List(ctx, &list, client.InNamespace(obj.GetNamespace())); err != nil {
			log.FromContext(ctx).Error(err, "listing the Websites a settings change concerns")
			return nil
		}
		requests := make([]reconcile.Request, 0, len(list.Items))
		for _, site := range list.Items {
			requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&site)})
		}
		return requests
	}
}

// DesiredPage is the page ConfigMap a site should have, given its namespace's settings (nil
// when there are none). It has no owner reference yet.
func DesiredPage(site *Website, settings *corev1.ConfigMap) *corev1.ConfigMap {
	html := site.Spec.Page
	if settings != nil {
		html += settings.Data["footer"]
	}
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: PageName(site), Labels: map[string]string{SiteLabel: site.Name}},
		Data:       map[string]string{"index.html": html},
	}
}

// DesiredDeployment is the Deployment a site should have: Spec.Replicas web servers that mount
// the page. It has no owner reference yet.
func DesiredDeployment(site *Website) *appsv1.Deployment {
	labels := map[string]string{SiteLabel: site.Name}
	replicas := site.Spec.Replicas
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: site.Name, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{Name: "web", Image: Image,
						VolumeMounts: []corev1.VolumeMount{{Name: "page", MountPath: "/usr/share/nginx/html"}}}},
					Volumes: []corev1.Volume{{Name: "page", VolumeSource: corev1.VolumeSource{
						ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: PageName(site)}}}}},
				},
			},
		},
	}
}

// WebsiteReconciler makes a Website's page and Deployment what they should be, each with a
// controller reference to the site, and reports the Deployment's ready replicas and the
// generation it acted on in the site's status. It reads through Client: with the manager's
// client, from the cache. (It reads page ConfigMaps as whole objects: exercise 2 says what that
// means for a controller whose ConfigMap watches are metadata-only.)
type WebsiteReconciler struct {
	Client client.Client
}

var _ reconcile.Reconciler = &WebsiteReconciler{}

// Reconcile converges one Website. A site that is gone needs nothing: the garbage collector
// deletes its children (lesson 08).
func (r *WebsiteReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var site Website
	if err := r.Client.Get(ctx, req.NamespacedName, &site); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	settings, err := r.settings(ctx, site.Namespace)
	if err != nil {
		return reconcile.Result{}, err
	}
	if err := r.ensurePage(ctx, &site, settings); err != nil {
		return reconcile.Result{}, err
	}
	deployment, err := r.ensureDeployment(ctx, &site)
	if err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.reportStatus(ctx, &site, deployment)
}

// settings reads the namespace's settings ConfigMap; nil when there is none.
func (r *WebsiteReconciler) settings(ctx context.Context, namespace string) (*corev1.ConfigMap, error) {
	var settings corev1.ConfigMap
	err := r.Client.Get(ctx, client.ObjectKey{Namespace: namespace, Name: SettingsName}, &settings)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return &settings, err
}

// ensurePage creates or updates the page; CreateOrUpdate writes only when something differs.
func (r *WebsiteReconciler) ensurePage(ctx context.Context, site *Website, settings *corev1.ConfigMap) error {
	desired := DesiredPage(site, settings)
	page := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: desired.Namespace, Name: desired.Name}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, page, func() error {
		page.Labels, page.Data = desired.Labels, desired.Data
		return controllerutil.SetControllerReference(site, page, r.Client.Scheme())
	})
	return err
}

// ensureDeployment creates or updates the Deployment, and returns it as last read (from the
// cache) or written.
func (r *WebsiteReconciler) ensureDeployment(ctx context.Context, site *Website) (*appsv1.Deployment, error) {
	desired := DesiredDeployment(site)
	deployment := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: desired.Namespace, Name: desired.Name}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, deployment, func() error {
		deployment.Labels = desired.Labels
		deployment.Spec.Replicas = desired.Spec.Replicas
		if deployment.CreationTimestamp.IsZero() { // the selector cannot change after creation
			deployment.Spec.Selector = desired.Spec.Selector
			deployment.Spec.Template = desired.Spec.Template
		}
		return controllerutil.SetControllerReference(site, deployment, r.Client.Scheme())
	})
	return deployment, err
}

// reportStatus writes the site's status through the status subresource, only when it changed.
func (r *WebsiteReconciler) reportStatus(ctx context.Context, site *Website, deployment *appsv1.Deployment) error {
	want := WebsiteStatus{ObservedGeneration: site.Generation, ReadyReplicas: deployment.Status.ReadyReplicas}
	if site.Status == want {
		return nil
	}
	before := site.DeepCopy()
	site.Status = want
	return r.Client.Status().Patch(ctx, site, client.MergeFrom(before))
}
