package kind

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"workshop.local/scripts/internal/probe"
)

// checkReady is nil when the API server answers /readyz and every node reports Ready.
func checkReady(ctx context.Context, kubeconfig string) error {
	if err := probe.Readyz(ctx, kubeconfig); err != nil {
		return fmt.Errorf("API server not answering: %w", err)
	}
	cs, err := probe.Clientset(kubeconfig)
	if err != nil {
		return err
	}
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	if len(nodes.Items) == 0 {
		return fmt.Errorf("no node has registered yet")
	}
	for _, node := range nodes.Items {
		if !nodeReady(node) {
			return fmt.Errorf("node %s is not Ready", node.Name)
		}
	}
	return nil
}

func nodeReady(node corev1.Node) bool {
	for _, cond := range node.Status.Conditions {
		if cond.Type == corev1.NodeReady {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}
