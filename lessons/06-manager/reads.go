package managers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// Exercise 2: the cached client and the API reader.
//
// mgr.GetClient() reads typed objects such as *corev1.ConfigMap from the manager's cache (an
// informer per kind, lesson 03) and writes to the API server. A read costs no request, which
// is why a controller can afford to read everything it needs on every reconcile. The price:
// the cache may be behind the server. It learns about a change only when its informer hears
// of it (a watch event, or a new list), which is usually after the write has returned.
//
// mgr.GetAPIReader() reads from the API server every time: one request per read, and the
// server's truth at that moment.
//
// The specs count the requests your functions send, and hold back the cache's watch to see
// whether your functions really know which of the two they are reading from.

// Exercise 2a: read a ConfigMap the way a reconciler reads nearly everything: from the cache,
// with no request to the API server.
func ReadCached(ctx context.Context, mgr manager.Manager, key client.ObjectKey) (*corev1.ConfigMap, error) {
	// TODO(exercise 2): read through the reader that answers from the cache. A ConfigMap the
	// cache does not hold is an error (NotFound), not an empty ConfigMap.
	return nil, errNotImplemented(2)
}

// Exercise 2b: read a ConfigMap as the API server has it right now, even if the cache has not
// seen the latest change. Exactly one request, and nothing else.
func ReadFresh(ctx context.Context, mgr manager.Manager, key client.ObjectKey) (*corev1.ConfigMap, error) {
	// TODO(exercise 2): read through the reader that asks the API server every time.
	return nil, errNotImplemented(2)
}

// Exercise 2c: create a ConfigMap, and return it once the manager's cache has it, so that the
// caller (and any later cached read in this process) finds it. This is read-your-writes on
// top of a cache: the create usually returns before the watch event arrives, so a cached read
// right after it may well say NotFound.
//
// Send one request only: the create. Wait for the cache, not for the server. Waiting makes
// sense only while the cache says NotFound: any other error (a ConfigMap in a namespace the
// cache does not cover, say) will not go away by asking again.
func CreateAndRead(ctx context.Context, mgr manager.Manager, cm *corev1.ConfigMap) (*corev1.ConfigMap, error) {
	// TODO(exercise 2): create cm, then look into the cache again and again until it has the
	// new ConfigMap, and return what the cache holds. Decide which answers mean "not yet" and
	// which mean "stop".
	return nil, errNotImplemented(2)
}
