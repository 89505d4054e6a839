// Wrong (exercise 2): it reads the Deployment once and retries only the Update, with the same stale copy.
// The Conflict says the copy is stale; sending the same copy again fails the same way every
// time, until the retries run out. Only a fresh Get carries the new resourceVersion.

package clients

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
)

// Exercise 2: create, get, update and delete a Deployment with the Clientset.
//
// The Clientset is a bundle of generated, typed clients, one per group version:
// cs.AppsV1().Deployments(namespace) has Create, Get, Update, Delete, List, Watch, Patch and
// more, all typed: Get returns a *appsv1.Deployment, List a *appsv1.DeploymentList. Each is a
// few lines on top of a RESTClient.
//
// Errors from the server are *errors.StatusError values; package
// k8s.io/apimachinery/pkg/api/errors (usually imported as apierrors) tells them apart:
// apierrors.IsNotFound, IsAlreadyExists, IsConflict, IsInvalid.

// Exercise 2a: create a Deployment named name that runs replicas copies of one container.
//
// A Deployment finds its Pods by label: its selector must match the labels of its Pod
// template, or the server rejects it. Label both with app=<name>. Return what the server
// returned: unlike your input, it has a UID, a resourceVersion and defaults filled in.
func CreateDeployment(ctx context.Context, cs kubernetes.Interface, namespace, name, image string, replicas int32) (*appsv1.Deployment, error) {
	labels := map[string]string{"app": name}
	deployment := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}}},
			},
		},
	}
	return cs.AppsV1().Deployments(namespace).Create(ctx, deployment, metav1.CreateOptions{})
}

// Exercise 2b: read again a Deployment you already hold a copy of.
//
// A name says where an object is, not which object it is: once a Deployment is deleted, anyone
// may create another one under the same name. The UID tells them apart: the server gives every
// object a new one when it creates it. RereadDeployment reads known's Deployment afresh:
//
//   - still there, with known's UID: return the server's copy and true;
//   - gone, or its name now taken by another object (another UID): return nil and false, with no
//     error, because "gone" is an answer, not a failure;
//   - any other error (the server refuses you, or does not answer): return it as it is, because
//     it says nothing about whether the Deployment exists.
func RereadDeployment(ctx context.Context, cs kubernetes.Interface, known *appsv1.Deployment) (*appsv1.Deployment, bool, error) {
	current, err := cs.AppsV1().Deployments(known.Namespace).Get(ctx, known.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, false, nil // gone: that is the answer
	}
	if err != nil {
		return nil, false, err // Forbidden, a timeout, a 500: we do not know, so the caller decides
	}
	if current.UID != known.UID {
		return nil, false, nil // the same name, but another object: ours is gone
	}
	return current, true, nil
}

// Exercise 2c: change a Deployment with mutate, safely when others change it too.
//
// Every object carries a resourceVersion. Update sends back the one you read, and the server
// refuses the update with 409 Conflict if the object changed since: that is optimistic
// concurrency, and it stops you from silently overwriting somebody else's change. The cure
// is to read the object again, apply your change again, and retry the update.
//
// The specs make a competing change the first time your mutate is called, so a single
// get-mutate-update fails. Return the updated Deployment as the server returned it.
func UpdateDeployment(ctx context.Context, cs kubernetes.Interface, namespace, name string, mutate func(*appsv1.Deployment)) (*appsv1.Deployment, error) {
	deployments := cs.AppsV1().Deployments(namespace)
	var updated *appsv1.Deployment
	// RetryOnConflict retries only on a Conflict, a few times with a short backoff; every
	// attempt starts from a fresh read, so mutate always sees the latest object.
	current, err := deployments.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	mutate(current)
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		updated, err = deployments.Update(ctx, current, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return nil, err
	}
	return updated, nil
}

// Exercise 2d: delete a Deployment, together with its ReplicaSets and their Pods.
//
// Deleting an owner lets the garbage collector delete what it owns; the propagation policy
// says how: Background (delete the owner now, the children soon after), Foreground (the owner
// stays, marked as being deleted, until the children that block its deletion are gone) or
// Orphan (keep the children). Ask for Background: say it rather than rely on the server's
// default, which depends on the resource. A Deployment that is already gone is not an error:
// the caller wanted it gone, and it is.
func DeleteDeployment(ctx context.Context, cs kubernetes.Interface, namespace, name string) error {
	err := cs.AppsV1().Deployments(namespace).Delete(ctx, name, metav1.DeleteOptions{
		PropagationPolicy: ptr.To(metav1.DeletePropagationBackground),
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
