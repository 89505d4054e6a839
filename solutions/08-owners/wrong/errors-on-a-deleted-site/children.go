// Wrong (exercise 2): Reconcile returns the NotFound error when the Website is gone.
// A request for a deleted Website is normal (the delete event itself queues one): returning the
// error makes the controller retry it, with backoff, for nothing.

package owners

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Exercise 2: converge the children, writing only what differs.
//
// controllerutil.CreateOrUpdate(ctx, c, obj, mutate) is read-compare-write in one call: it
// Gets obj by its namespace and name (overwriting whatever else obj held), calls mutate to
// set the fields you own on what it read, and then Creates obj if it did not exist, Updates
// it if mutate changed it (equality.Semantic.DeepEqual of before and after), or sends nothing.
// Everything you want in the object goes *inside* mutate; fields you do not set keep what is
// on the server, including the defaults the API server filled in. If mutate returns an error,
// CreateOrUpdate returns it and writes nothing.

// ConvergePage makes the site's page ConfigMap (PageName(site), in the site's namespace)
// exist, hold site.Spec.Page under PageKey, and be controlled by the site. It writes only
// when something differs, keeps what others put on the ConfigMap (labels, annotations, other
// keys), and reports what it did. A page controlled by someone else is not touched: the
// *controllerutil.AlreadyOwnedError is returned.
func ConvergePage(ctx context.Context, c client.Client, site *Website) (controllerutil.OperationResult, error) {
	page := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: PageName(site)}}
	return controllerutil.CreateOrUpdate(ctx, c, page, func() error {
		// Inside mutate, so that the reference goes out with the same create or update. Its
		// error is returned: CreateOrUpdate then writes nothing, so a page another Website
		// controls is left as it was.
		if err := Own(c.Scheme(), site, page); err != nil {
			return err
		}
		if page.Data == nil {
			page.Data = map[string]string{}
		}
		page.Data[PageKey] = site.Spec.Page
		return nil
	})
}

// ConvergeDeployment makes the site's Deployment (named like the site, in its namespace)
// exist, run site.Spec.Replicas pods selected by SelectorLabels(site) from a template set by
// SetPodTemplate, and be controlled by the site. Like ConvergePage, it writes only when
// something differs and keeps what others (the Deployment controller, the API server's
// defaults) put on the Deployment.
func ConvergeDeployment(ctx context.Context, c client.Client, site *Website) (controllerutil.OperationResult, error) {
	deploy := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: site.Namespace, Name: site.Name}}
	return controllerutil.CreateOrUpdate(ctx, c, deploy, func() error {
		if err := Own(c.Scheme(), site, deploy); err != nil {
			return err
		}
		replicas := site.Spec.Replicas
		deploy.Spec.Replicas = &replicas
		// The selector cannot change once the Deployment exists; it is the same value every time.
		deploy.Spec.Selector = &metav1.LabelSelector{MatchLabels: SelectorLabels(site)}
		// Only the fields the site decides: the rest of the template keeps the server's defaults.
		SetPodTemplate(&deploy.Spec.Template, site)
		return nil
	})
}

// WebsiteReconciler converges the children of a Website.
type WebsiteReconciler struct {
	// Client reads and writes Websites and their children; its Scheme knows Websites.
	Client client.Client
}

var _ reconcile.Reconciler = &WebsiteReconciler{}

// Reconcile gets the Website named by req and converges its page and its Deployment. A
// Website that no longer exists ends the reconcile quietly: its children are the garbage
// collector's business. Any other error (reading the site, converging a child) is returned,
// so that the controller retries and the error shows.
func (r *WebsiteReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var site Website
	if err := r.Client.Get(ctx, req.NamespacedName, &site); err != nil {
		return reconcile.Result{}, err
	}
	if _, err := ConvergePage(ctx, r.Client, &site); err != nil {
		return reconcile.Result{}, err
	}
	if _, err := ConvergeDeployment(ctx, r.Client, &site); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, nil
}
