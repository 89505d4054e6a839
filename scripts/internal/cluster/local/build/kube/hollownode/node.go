package hollownode

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// uninitializedTaint is the taint a kubelet with an external cloud provider registers its Node
// with; the scheduler places no Pod there until the cloud provider removes it.
const uninitializedTaint = "node.cloudprovider.kubernetes.io/uninitialized"

// initializeNode does what a cloud provider's node controller does for a new node: it sets the
// Node's addresses and removes the "uninitialized" taint. The address is 127.0.0.1, where the
// kubelet listens, so the API server reaches it for `kubectl logs` and `exec` (it is told to
// prefer InternalIP addresses). The kubelet never rewrites addresses that are already set.
func initializeNode(ctx context.Context, cs *clientset.Clientset, name string) {
	retryEvery(ctx, 200*time.Millisecond, func() bool {
		node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false // not registered yet
		}
		if err := setAddresses(ctx, cs, node); err != nil {
			klog.ErrorS(err, "Setting the node's addresses failed; retrying")
			return false
		}
		if err := removeTaint(ctx, cs, node); err != nil {
			klog.ErrorS(err, "Removing the uninitialized taint failed; retrying")
			return false
		}
		klog.InfoS("Node initialized", "node", name, "address", "127.0.0.1")
		return true
	})
}

func wantedAddresses(name string) []v1.NodeAddress {
	return []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: "127.0.0.1"}, {Type: v1.NodeHostName, Address: name}}
}

func setAddresses(ctx context.Context, cs *clientset.Clientset, node *v1.Node) error {
	want := wantedAddresses(node.Name)
	if slices.Equal(node.Status.Addresses, want) {
		return nil
	}
	// A JSON merge patch replaces the whole list, dropping the machine's address from earlier runs.
	patch, _ := json.Marshal(map[string]any{"status": map[string]any{"addresses": want}})
	_, err := cs.CoreV1().Nodes().Patch(ctx, node.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	return err
}

func removeTaint(ctx context.Context, cs *clientset.Clientset, node *v1.Node) error {
	kept := slices.DeleteFunc(slices.Clone(node.Spec.Taints), func(t v1.Taint) bool { return t.Key == uninitializedTaint })
	if len(kept) == len(node.Spec.Taints) {
		return nil
	}
	node = node.DeepCopy()
	node.Spec.Taints = kept
	_, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // a conflict is retried
	return err
}
