package local

import (
	"context"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"workshop.local/scripts/internal/probe"
	"workshop.local/scripts/workspace"
)

// kubeletAccessBinding lets the API server's kubelet client identity use the kubelet's API.
// The kubelet asks the API server (SubjectAccessReview) before it serves logs, exec or stats; the
// bootstrap ClusterRole system:kubelet-api-admin allows exactly that, and kubeadm binds it the
// same way. No other identity gets it: anyone else calling the kubelet directly is refused.
const kubeletAccessBinding = "workshop:kube-apiserver-kubelet-client"

// grantKubeletAccess creates the binding once; it survives restarts in etcd.
func (c *Cluster) grantKubeletAccess(ctx context.Context) error {
	cs, err := probe.Clientset(workspace.KubeconfigPath(c.Dir))
	if err != nil {
		return err
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: kubeletAccessBinding},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "system:kubelet-api-admin"},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: kubeletClientIdentity.user}},
	}
	_, err = cs.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("let the API server reach the kubelet (ClusterRoleBinding %s): %w", kubeletAccessBinding, err)
	}
	return nil
}
