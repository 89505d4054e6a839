package operator

import (
	"context"
	"errors"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	"workshop.local/lessons/10-operator/api/v1alpha1"
)

// The StaticSite controller: how it is wired, and the order in which Reconcile calls the parts
// you write. It needs no edits; read it first.

// ControllerName names the controller in logs and metrics, and is the reportingController of
// its events (kubectl describe shows it in an event's From column).
const ControllerName = "staticsite-controller"

// StaticSiteReconciler turns each StaticSite into its children, registers it in the site
// directory, and reports what it saw in the site's status and in events.
type StaticSiteReconciler struct {
	// Client reads through the manager's cache and writes to the API server.
	Client client.Client
	// Recorder sends events.k8s.io/v1 Events (exercise 5).
	Recorder recorder.EventRecorder
	// Directory is the namespace and name of the shared directory ConfigMap (exercise 4).
	Directory types.NamespacedName
}

var _ reconcile.Reconciler = &StaticSiteReconciler{}

// NewReconciler makes a reconciler that uses mgr's client and an event recorder named
// ControllerName (mgr.GetEventRecorder: the events.k8s.io/v1 API), and registers sites in a
// ConfigMap DirectoryName in directoryNamespace.
func NewReconciler(mgr manager.Manager, directoryNamespace string) *StaticSiteReconciler {
	return &StaticSiteReconciler{
		Client:    mgr.GetClient(),
		Recorder:  mgr.GetEventRecorder(ControllerName),
		Directory: types.NamespacedName{Namespace: directoryNamespace, Name: DirectoryName},
	}
}

// SetupWithManager builds the controller (lesson 09): StaticSites, with a predicate that drops
// updates that did not change the generation (writes to status, lesson 09's exercise 4; a
// deletion does change it), and the three kinds of children it owns.
func (r *StaticSiteReconciler) SetupWithManager(mgr manager.Manager) error {
	return r.Wiring(mgr).Complete(r)
}

// Wiring is SetupWithManager's Builder before Complete: the specs complete it with a recorder
// around the reconciler, to see when it runs.
func (r *StaticSiteReconciler) Wiring(mgr manager.Manager) *builder.Builder {
	return ctrl.NewControllerManagedBy(mgr).
		Named(ControllerName).
		For(&v1alpha1.StaticSite{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Owns(&corev1.ConfigMap{}).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.Service{})
}

// Reconcile converges one StaticSite: a site being deleted is finalized (exercise 4); any other
// gets its children (exercise 2), its entry in the site directory (exercise 4) and a status
// that says how they are (exercise 3). A failure is also reported as a Warning event (exercise
// 5) and returned, so the site is retried with backoff.
func (r *StaticSiteReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var site v1alpha1.StaticSite
	if err := r.Client.Get(ctx, req.NamespacedName, &site); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if !site.DeletionTimestamp.IsZero() {
		return reconcile.Result{}, r.failed(&site, r.finalize(ctx, &site))
	}
	deployment, err := r.ensureChildren(ctx, &site)
	if err == nil {
		err = r.ensureRegistered(ctx, &site)
	}
	return reconcile.Result{}, errors.Join(r.failed(&site, err), r.updateStatus(ctx, &site, deployment, err))
}

// failed reports err, if any, as an event on site, and returns it.
func (r *StaticSiteReconciler) failed(site *v1alpha1.StaticSite, err error) error {
	if err != nil {
		r.recordFailure(site, err)
	}
	return err
}

// The condition types of a StaticSite's status (exercise 3): a Deployment's Available and
// Progressing, and Degraded.
const (
	Available   = "Available"   // the site serves its page
	Progressing = "Progressing" // the site's web servers are changing
	Degraded    = "Degraded"    // the controller could not make the site what it should be
)

// Change is what the controller did to one object, as an event reports it (exercise 5): the
// Change is the event's reason, and Action the event's action.
type Change string

// The changes the controller reports.
const (
	Created      Change = "Created"      // a child was made
	Updated      Change = "Updated"      // a child was changed back to what it should be
	Deleted      Change = "Deleted"      // a child that should not exist was removed
	Registered   Change = "Registered"   // the site's entry was written to the directory
	Unregistered Change = "Unregistered" // the site's entry was removed from the directory
)

// Action is the verb of a change, for an event's action: "Create" for Created, and so on.
func (c Change) Action() string {
	return map[Change]string{Created: "Create", Updated: "Update", Deleted: "Delete", Registered: "Register", Unregistered: "Unregister"}[c]
}

// KindOf is obj's kind as the reconciler's scheme knows it ("Deployment"); objects read through
// a typed client often have an empty TypeMeta.
func (r *StaticSiteReconciler) KindOf(obj client.Object) string {
	gvk, err := apiutil.GVKForObject(obj, r.Client.Scheme())
	if err != nil {
		return "object"
	}
	return gvk.Kind
}
