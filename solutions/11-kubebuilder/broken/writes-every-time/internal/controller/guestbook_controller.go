// Broken: it writes to the API server even when nothing changed.
// It sets the Available condition afresh on every reconcile, with lastTransitionTime now
// (instead of meta.SetStatusCondition, which keeps the time until the condition's status
// changes), so the status always differs from the one it read and every reconcile writes it.

package controller

import (
	"context"
	"fmt"
	"html"
	"maps"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	webappv1 "workshop.local/lessons/11-kubebuilder/api/v1"
)

// Exercise 2: the reconciler (Reconcile and SetupWithManager). Exercise 3: the RBAC markers
// above Reconcile. README.md says what each must do.
//
// cmd/main.go (scaffolding, no edits) builds this reconciler with the manager's client and
// scheme, and calls SetupWithManager; anything more the reconciler needs, it sets up there.
//
// A Guestbook owns two children in its namespace, both named like it and both carrying it as
// their controller: a ConfigMap holding the page (index.html) and a Deployment of web servers
// that mount it. Reconcile makes them what the Guestbook says, writes nothing when they already
// are, and reports in the status what it saw.

// image is the web servers' image: pause, a container that only waits. The lesson is about the
// controller, not a web server; all it needs of the pods is that they start and become ready.
const image = "registry.k8s.io/pause:3.10"

// GuestbookReconciler reconciles a Guestbook object
type GuestbookReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// The permissions the controller needs: kubebuilder's three for Guestbooks, then one marker per
// API group of its children. `make manifests` writes them into the Role of config/rbac/role.yaml
// (namespace= makes it a Role, not a ClusterRole; the project was scaffolded with --namespaced).
// The manager's client reads through its cache, which lists and watches: no request of it is a
// get. CreateOrUpdate reads the child from the cache and sends a Create or an Update (never a
// Patch); the status goes with an update of guestbooks/status; the garbage collector, not the
// controller, deletes the children of a deleted Guestbook. So the children's rules are list,
// watch, create and update. (The Guestbook rules are the scaffold's, which grant more.)

// +kubebuilder:rbac:groups=webapp.lesson11.workshop.local,namespace=guestbook-system,resources=guestbooks,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=webapp.lesson11.workshop.local,namespace=guestbook-system,resources=guestbooks/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=webapp.lesson11.workshop.local,namespace=guestbook-system,resources=guestbooks/finalizers,verbs=update
// +kubebuilder:rbac:groups="",namespace=guestbook-system,resources=configmaps,verbs=list;watch;create;update
// +kubebuilder:rbac:groups=apps,namespace=guestbook-system,resources=deployments,verbs=list;watch;create;update

// Reconcile is part of the main kubernetes reconciliation loop which aims to
// move the current state of the cluster closer to the desired state.
// It compares the state specified by the Guestbook object against the actual cluster state
// (its page ConfigMap and its Deployment), makes the cluster match it, and records what it saw
// in the Guestbook's status.
//
// For more details, check Reconcile and its Result here:
// - https://pkg.go.dev/sigs.k8s.io/controller-runtime@v0.25.0/pkg/reconcile
func (r *GuestbookReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)

	var guestbook webappv1.Guestbook
	if err := r.Get(ctx, req.NamespacedName, &guestbook); err != nil {
		// Deleted: the garbage collector deletes its children (their controller reference).
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.ensurePage(ctx, &guestbook); err != nil {
		return ctrl.Result{}, err
	}
	deployment, err := r.ensureDeployment(ctx, &guestbook)
	if err != nil {
		return ctrl.Result{}, err
	}
	changed, err := r.updateStatus(ctx, &guestbook, deployment)
	if changed {
		log.Info("Status updated", "readyReplicas", guestbook.Status.ReadyReplicas)
	}
	return ctrl.Result{}, err
}

// ensurePage makes the guestbook's page ConfigMap hold the page. CreateOrUpdate reads it (from
// the cache), lets the function set what this controller owns, and writes only when that
// changed something: a reconcile of a guestbook whose page is right sends nothing.
func (r *GuestbookReconciler) ensurePage(ctx context.Context, guestbook *webappv1.Guestbook) error {
	page := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: guestbook.Namespace, Name: guestbook.Name}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, page, func() error {
		page.Labels = withLabels(page.Labels, labels(guestbook))
		page.Data = map[string]string{"index.html": render(guestbook)}
		return controllerutil.SetControllerReference(guestbook, page, r.Scheme)
	})
	return err
}

// ensureDeployment makes the guestbook's Deployment run spec.replicas web servers that mount
// the page, and returns it as the cache has it (its status is what the guestbook reports).
func (r *GuestbookReconciler) ensureDeployment(ctx context.Context, guestbook *webappv1.Guestbook) (*appsv1.Deployment, error) {
	deployment := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: guestbook.Namespace, Name: guestbook.Name}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.Client, deployment, func() error {
		deployment.Labels = withLabels(deployment.Labels, labels(guestbook))
		replicas := guestbook.Spec.Replicas
		deployment.Spec.Replicas = &replicas
		// The selector cannot change once the Deployment exists: it is set when it is made.
		if deployment.CreationTimestamp.IsZero() {
			deployment.Spec.Selector = &metav1.LabelSelector{MatchLabels: labels(guestbook)}
		}
		setPodTemplate(&deployment.Spec.Template, guestbook)
		return controllerutil.SetControllerReference(guestbook, deployment, r.Scheme)
	})
	return deployment, err
}

// updateStatus sets the status from what this reconcile saw and writes it through the status
// subresource, only when it changed. It says whether it wrote.
func (r *GuestbookReconciler) updateStatus(ctx context.Context, guestbook *webappv1.Guestbook, deployment *appsv1.Deployment) (bool, error) {
	before := guestbook.Status.DeepCopy()
	status := &guestbook.Status
	status.ObservedGeneration = guestbook.Generation
	status.ReadyReplicas = deployment.Status.ReadyReplicas
	available := metav1.Condition{
		Type:               "Available",
		Status:             metav1.ConditionFalse,
		Reason:             "ReplicasNotReady",
		Message:            fmt.Sprintf("%d of %d web servers ready", status.ReadyReplicas, guestbook.Spec.Replicas),
		ObservedGeneration: guestbook.Generation,
	}
	if status.ReadyReplicas >= guestbook.Spec.Replicas {
		available.Status, available.Reason = metav1.ConditionTrue, "ReplicasReady"
	}
	available.LastTransitionTime = metav1.Now()
	status.Conditions = []metav1.Condition{available}
	if equality.Semantic.DeepEqual(before, status) {
		return false, nil
	}
	// A conflict (the cached guestbook was not the latest) returns an error: the reconcile is
	// retried with the newer one.
	return true, r.Status().Update(ctx, guestbook)
}

// labels are on both children, and select the web servers.
func labels(guestbook *webappv1.Guestbook) map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":     "guestbook",
		"app.kubernetes.io/instance": guestbook.Name,
	}
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

// render is the guestbook's page: its title, its theme as the body's class, and each entry.
func render(guestbook *webappv1.Guestbook) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><body class=%q>\n<h1>%s</h1>\n", guestbook.Spec.Theme, html.EscapeString(guestbook.Spec.Title))
	for _, entry := range guestbook.Spec.Entries {
		fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(entry))
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// setPodTemplate sets, in the template of the web servers' pods, what this controller decides:
// their labels, the container web running pause with the page mounted where a web server would
// serve it from, and the page's volume. It runs on every reconcile, so a template edited by hand
// is put back, and it leaves everything else as it is: the API server fills in defaults in a
// stored template (imagePullPolicy, terminationMessagePath, dnsPolicy, a volume's defaultMode,
// ...), so a whole new template would differ from the one read back on every reconcile, and
// CreateOrUpdate would send an Update each time.
func setPodTemplate(template *corev1.PodTemplateSpec, guestbook *webappv1.Guestbook) {
	template.Labels = withLabels(template.Labels, labels(guestbook))
	pod := &template.Spec
	web := named(&pod.Containers, corev1.Container{Name: "web"}, func(c corev1.Container) string { return c.Name })
	web.Image = image
	mount := named(&web.VolumeMounts, corev1.VolumeMount{Name: "page"}, func(m corev1.VolumeMount) string { return m.Name })
	mount.MountPath = "/usr/share/nginx/html"
	volume := named(&pod.Volumes, corev1.Volume{Name: "page"}, func(v corev1.Volume) string { return v.Name })
	if volume.ConfigMap == nil {
		volume.VolumeSource = corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}
	}
	volume.ConfigMap.Name = guestbook.Name
}

// named returns the item of *list with fresh's name, after appending fresh (that name and
// nothing else) if there is none.
func named[T any](list *[]T, fresh T, nameOf func(T) string) *T {
	i := slices.IndexFunc(*list, func(item T) bool { return nameOf(item) == nameOf(fresh) })
	if i < 0 {
		*list = append(*list, fresh)
		i = len(*list) - 1
	}
	return &(*list)[i]
}

// SetupWithManager sets up the controller with the Manager.
// For: reconcile a Guestbook when it changes. Owns: also when one of its children changes (or is
// deleted): the event of a child goes to the Guestbook its controller reference names.
func (r *GuestbookReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&webappv1.Guestbook{}).
		Owns(&corev1.ConfigMap{}).
		Owns(&appsv1.Deployment{}).
		Named("guestbook").
		Complete(r)
}
