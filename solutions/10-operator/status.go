package operator

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"workshop.local/lessons/10-operator/api/v1alpha1"
)

// Exercise 3: status that says what the controller saw, written only when it changed.
//
// Status is the controller's report: which generation of the spec it acted on
// (observedGeneration), what it counted (readyReplicas), and conditions. A condition has a
// type, a status (True, False or Unknown), a reason (one word for machines, CamelCase by
// convention), a message for people, the generation it describes (its own observedGeneration)
// and the time its status last changed. A site has three conditions: Available (it works) and
// Progressing (it is changing), as a Deployment has, and Degraded (something is wrong).
// meta.SetStatusCondition adds or updates one condition in a list and keeps its
// lastTransitionTime unless its status changed. The status goes through the status subresource
// (Client.Status()), and only when it differs: a write nobody needs is load on the API server
// and, for a controller without lesson 09's predicate, another reconcile.

// updateStatus sets site's status from what this reconcile saw: observedGeneration the site's
// generation; readyReplicas the Deployment's ready web servers; Available True when the
// Deployment has all the site's replicas ready (and at least one); Progressing True while the
// Deployment has not yet caught up with its spec; Degraded True, with reconcileErr's text as its
// message, when the reconcile failed. Each condition carries the site's generation too.
// deployment is nil when the reconcile failed before it. It writes the status through the
// status subresource, and only when it changed.
func (r *StaticSiteReconciler) updateStatus(ctx context.Context, site *v1alpha1.StaticSite, deployment *appsv1.Deployment, reconcileErr error) error {
	before := site.DeepCopy()
	status := &site.Status
	status.ObservedGeneration = site.Generation
	if deployment != nil {
		status.ReadyReplicas = deployment.Status.ReadyReplicas
		meta.SetStatusCondition(&status.Conditions, available(site, deployment))
		meta.SetStatusCondition(&status.Conditions, progressing(site, deployment))
	}
	meta.SetStatusCondition(&status.Conditions, degraded(site, reconcileErr))
	if equality.Semantic.DeepEqual(before.Status, site.Status) {
		return nil
	}
	return r.Client.Status().Patch(ctx, site, client.MergeFrom(before))
}

func available(site *v1alpha1.StaticSite, deployment *appsv1.Deployment) metav1.Condition {
	c := metav1.Condition{Type: Available, ObservedGeneration: site.Generation}
	ready := deployment.Status.ReadyReplicas
	switch {
	case site.Spec.Replicas == 0:
		c.Status, c.Reason, c.Message = metav1.ConditionFalse, "ScaledToZero", "the site has no web servers"
	case ready >= site.Spec.Replicas:
		c.Status, c.Reason, c.Message = metav1.ConditionTrue, "ReplicasReady", fmt.Sprintf("%d of %d web servers ready", ready, site.Spec.Replicas)
	default:
		c.Status, c.Reason, c.Message = metav1.ConditionFalse, "ReplicasNotReady", fmt.Sprintf("%d of %d web servers ready", ready, site.Spec.Replicas)
	}
	return c
}

func progressing(site *v1alpha1.StaticSite, deployment *appsv1.Deployment) metav1.Condition {
	c := metav1.Condition{Type: Progressing, ObservedGeneration: site.Generation, Status: metav1.ConditionFalse, Reason: "RolloutComplete", Message: "the Deployment runs its latest spec"}
	want := int32(1)
	if deployment.Spec.Replicas != nil {
		want = *deployment.Spec.Replicas
	}
	s := deployment.Status
	if s.ObservedGeneration < deployment.Generation || s.UpdatedReplicas != want || s.ReadyReplicas != want || s.Replicas != want {
		c.Status, c.Reason, c.Message = metav1.ConditionTrue, "RollingOut", fmt.Sprintf("%d of %d web servers updated and ready", min(s.UpdatedReplicas, s.ReadyReplicas), want)
	}
	return c
}

func degraded(site *v1alpha1.StaticSite, reconcileErr error) metav1.Condition {
	c := metav1.Condition{Type: Degraded, ObservedGeneration: site.Generation, Status: metav1.ConditionFalse, Reason: "AsExpected", Message: "the last reconcile succeeded"}
	if reconcileErr != nil {
		c.Status, c.Reason, c.Message = metav1.ConditionTrue, "ReconcileFailed", reconcileErr.Error()
	}
	return c
}
