package informers_test

import (
	"context"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Helpers shared by the specs of several exercises.

// configMap is a ConfigMap to create, with one data entry and optional labels.
func configMap(namespace, name, value string, labels map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: labels},
		Data:       map[string]string{"value": value},
	}
}

// createConfigMap creates a ConfigMap through the API and returns what the server stored.
func createConfigMap(ctx context.Context, namespace, name string, labels map[string]string) *corev1.ConfigMap {
	GinkgoHelper()
	created, err := cluster.Clientset.CoreV1().ConfigMaps(namespace).Create(ctx, configMap(namespace, name, "1", labels), metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not create the ConfigMap %s/%s", namespace, name)
	return created
}

// updateConfigMap lets change edit a ConfigMap, writes it back, and returns what was stored.
func updateConfigMap(ctx context.Context, namespace, name string, change func(*corev1.ConfigMap)) *corev1.ConfigMap {
	GinkgoHelper()
	configMaps := cluster.Clientset.CoreV1().ConfigMaps(namespace)
	current, err := configMaps.Get(ctx, name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	change(current)
	updated, err := configMaps.Update(ctx, current, metav1.UpdateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not update the ConfigMap %s/%s", namespace, name)
	return updated
}

// deleteConfigMap deletes a ConfigMap through the API.
func deleteConfigMap(ctx context.Context, namespace, name string) {
	GinkgoHelper()
	err := cluster.Clientset.CoreV1().ConfigMaps(namespace).Delete(ctx, name, metav1.DeleteOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not delete the ConfigMap %s/%s", namespace, name)
}

// setValue is an updateConfigMap change.
func setValue(value string) func(*corev1.ConfigMap) {
	return func(cm *corev1.ConfigMap) { cm.Data = map[string]string{"value": value} }
}

// expectWaitingWhileHeld checks that the function under test, started in a goroutine that
// sends its error to returned, waits for a handler held by informers.HoldRecords: first the
// handler must be told about an object of the initial list (held closes) before the function
// returns, then the function must not return while the handler stays busy. The informer fills
// its cache before it notifies handlers, so by then the cache holds the initial list (it counts
// as synced once the list is in the handlers' buffers): a function that waits for the cache
// alone returns soon after, and only one that waits for its handler's registration still waits.
func expectWaitingWhileHeld(ctx context.Context, what string, held <-chan struct{}, returned chan error) {
	GinkgoHelper()
	Eventually(func() bool {
		select {
		case <-held:
			return true
		default:
			return len(returned) > 0
		}
	}).WithContext(ctx).WithTimeout(startWithin).Should(BeTrue(),
		"%s neither returned nor told its handler about what already exists within %s: do its informers run? %s", what, startWithin, startRunsRequested)
	select {
	case <-held:
	default:
		Fail(fmt.Sprintf("%s returned (error: %v) before its handler had been told about what already exists: it should return only once the handler has caught up with the initial list", what, <-returned))
	}
	Consistently(returned).WithContext(ctx).ShouldNot(Receive(),
		"%s returned while its handler was still busy with the initial list: the cache had synced, the handler had not; it should return only once the handler has caught up too", what)
}

// names returns the names of objects, for readable failure messages.
func names[T metav1.Object](objs []T) []string {
	out := make([]string, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.GetName())
	}
	return out
}

// startWithin bounds how long starting an informer and syncing its cache may take: the specs'
// namespaces hold a few objects, listed in well under a second. A function that hangs fails
// its spec after this with a hint, rather than at the spec's timeout.
const startWithin = 10 * time.Second

// startRunsRequested is the usual reason an informer that should have synced never does.
const startRunsRequested = "A factory's Start runs only the informers asked of it before Start was called"

// returnsWithin runs start, a function of yours that should return by itself, and returns its
// result. If start has not returned within the given time, the spec fails with "<what> did not
// return within <within>: <why>", why being the usual reason it blocks.
func returnsWithin[T any](ctx context.Context, what string, within time.Duration, why string, start func() (T, error)) T {
	GinkgoHelper()
	type result struct {
		value T
		err   error
	}
	returned := make(chan result, 1)
	go func() {
		defer GinkgoRecover()
		value, err := start()
		returned <- result{value, err}
	}()
	var res result
	Eventually(returned).WithContext(ctx).WithTimeout(within).Should(Receive(&res),
		"%s did not return within %s: %s", what, within, why)
	Expect(res.err).NotTo(HaveOccurred(), "%s failed", what)
	return res.value
}

// informersRun is returnsWithin's why for a function that starts informers and waits for them.
const informersRun = "with only a few objects to list, does its informer run? " + startRunsRequested
