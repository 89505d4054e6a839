// Wrong (exercise 2): ReadCached turns NotFound into an empty ConfigMap and no error (client.IgnoreNotFound).
// IgnoreNotFound belongs where "gone" means "nothing to do" (a reconciler's first read), not
// in a reader: the caller cannot tell a missing ConfigMap from an empty one, and CreateAndRead,
// which polls until the cache stops saying NotFound, returns before the cache has the object.

package managers

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
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
	var cm corev1.ConfigMap
	if err := mgr.GetClient().Get(ctx, key, &cm); err != nil {
		return &cm, client.IgnoreNotFound(err)
	}
	return &cm, nil
}

// Exercise 2b: read a ConfigMap as the API server has it right now, even if the cache has not
// seen the latest change. Exactly one request, and nothing else.
func ReadFresh(ctx context.Context, mgr manager.Manager, key client.ObjectKey) (*corev1.ConfigMap, error) {
	var cm corev1.ConfigMap
	if err := mgr.GetAPIReader().Get(ctx, key, &cm); err != nil {
		return nil, err
	}
	return &cm, nil
}

// cachePollInterval is how often CreateAndRead looks into the cache. Looking costs no request,
// only a map lookup and a copy.
const cachePollInterval = 10 * time.Millisecond

// Exercise 2c: create a ConfigMap, and return it once the manager's cache has it, so that the
// caller (and any later cached read in this process) finds it. This is read-your-writes on
// top of a cache: the create usually returns before the watch event arrives, so a cached read
// right after it may well say NotFound.
//
// Send one request only: the create. Wait for the cache, not for the server. Waiting makes
// sense only while the cache says NotFound: any other error (a ConfigMap in a namespace the
// cache does not cover, say) will not go away by asking again.
func CreateAndRead(ctx context.Context, mgr manager.Manager, cm *corev1.ConfigMap) (*corev1.ConfigMap, error) {
	// Writes always go to the API server; Create fills cm in with what the server stored.
	if err := mgr.GetClient().Create(ctx, cm); err != nil {
		return nil, err
	}
	var read *corev1.ConfigMap
	err := wait.PollUntilContextCancel(ctx, cachePollInterval, true, func(ctx context.Context) (bool, error) {
		got, err := ReadCached(ctx, mgr, client.ObjectKeyFromObject(cm))
		switch {
		case apierrors.IsNotFound(err):
			return false, nil // the watch event has not arrived yet: look again
		case err != nil:
			return false, err // waiting will not fix this: stop polling
		}
		read = got
		return true, nil
	})
	return read, err
}
