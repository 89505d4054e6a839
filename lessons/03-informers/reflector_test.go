package informers_test

import (
	"context"
	"fmt"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	informers "workshop.local/lessons/03-informers"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 1: a ListWatch and a Reflector", harness.Exercise(1), func() {
	It("lists the ConfigMaps of its namespace only, with the resourceVersion of the list", func(ctx SpecContext) {
		ns, other := cluster.Namespace(ctx, "lesson03"), cluster.Namespace(ctx, "lesson03")
		createConfigMap(ctx, ns, "mine", nil)
		createConfigMap(ctx, other, "theirs", nil)

		list := listConfigMaps(ctx, informers.ConfigMapListWatch(cluster.Clientset, ns))
		Expect(names(pointers(list.Items))).To(ContainElement("mine"))
		Expect(list.Items).To(HaveEach(HaveField("Namespace", ns)), "a ListWatch for namespace %s should list nothing from other namespaces", ns)
		Expect(list.ResourceVersion).NotTo(BeEmpty(), "a list carries the resourceVersion of its snapshot: a watch starts from there")
	}, SpecTimeout(harness.Timeout))

	It("watches from the list's resourceVersion: every later change, nothing from before", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson03")
		createConfigMap(ctx, ns, "before", nil)
		lw := informers.ConfigMapListWatch(cluster.Clientset, ns)
		list := listConfigMaps(ctx, lw)

		w, err := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
		Expect(err).NotTo(HaveOccurred(), "your ListWatch could not watch")
		DeferCleanup(w.Stop)
		updateConfigMap(ctx, ns, "before", setValue("2"))
		createConfigMap(ctx, ns, "after", nil)

		seen := watchUntil(ctx, w, "ADDED after")
		Expect(seen).To(ContainElement("MODIFIED before"), "a change after the list's resourceVersion must reach the watch")
		Expect(seen).NotTo(ContainElement("ADDED before"), "'before' was in the list already: a watch from the list's resourceVersion must not report it again")
	}, SpecTimeout(harness.Timeout))

	It("hands the options of a list on to the server: a label selector, a page size", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson03")
		createConfigMap(ctx, ns, "picked", pickLabel)
		createConfigMap(ctx, ns, "unlabelled", nil)
		createConfigMap(ctx, ns, "also-unlabelled", nil)
		lw := informers.ConfigMapListWatch(cluster.Clientset, ns)

		selected := listConfigMapsWith(ctx, lw, metav1.ListOptions{LabelSelector: pickSelector})
		Expect(names(pointers(selected.Items))).To(ConsistOf("picked"),
			"a list asked for the ConfigMaps labelled %s came back with others: the server selects only 'picked' when the selector reaches it", pickSelector)

		page := listConfigMapsWith(ctx, lw, metav1.ListOptions{Limit: 2})
		Expect(page.Items).To(HaveLen(2), "a list asked for pages of 2 returned %d ConfigMaps %v, from a namespace that holds 3 or more: the server answers one page at a time when the page size reaches it",
			len(page.Items), names(pointers(page.Items)))
		Expect(page.Continue).NotTo(BeEmpty(), "a first page of 2 out of 3 or more ConfigMaps should carry a continue token for the rest")
	}, SpecTimeout(harness.Timeout))

	It("keeps a store equal to the namespace's ConfigMaps as they are added, changed and deleted", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson03")
		early := createConfigMap(ctx, ns, "early", nil)
		store := cache.NewStore(cache.MetaNamespaceKeyFunc)
		reflector := returnsWithin(ctx, "StartConfigMapReflector", reflectorStartWithin, reflectorRunsInGoroutine, func() (*cache.Reflector, error) {
			return informers.StartConfigMapReflector(harness.Background(ctx), cluster.Clientset, ns, store)
		})
		Expect(reflector).NotTo(BeNil(), "StartConfigMapReflector should return the Reflector it started")

		Eventually(storedVersion(store, ns, "early")).WithContext(ctx).Should(Equal(early.ResourceVersion),
			"the Reflector's first list should put 'early' in the store: is it running, on namespace %s?", ns)
		changed := updateConfigMap(ctx, ns, "early", setValue("2"))
		Eventually(storedVersion(store, ns, "early")).WithContext(ctx).Should(Equal(changed.ResourceVersion),
			"the store should follow an update: the watch delivers it")
		late := createConfigMap(ctx, ns, "late", nil)
		Eventually(storedVersion(store, ns, "late")).WithContext(ctx).Should(Equal(late.ResourceVersion), "the store should gain a ConfigMap created after the list")
		deleteConfigMap(ctx, ns, "early")
		Eventually(storedVersion(store, ns, "early")).WithContext(ctx).Should(BeEmpty(), "the store should lose a deleted ConfigMap")

		Expect(store.ListKeys()).To(HaveEach(HavePrefix(ns+"/")), "the store should hold the ConfigMaps of %s only", ns)
		Expect(reflector.LastSyncResourceVersion()).NotTo(BeEmpty(), "a running Reflector knows the resourceVersion it has synced to")
	}, SpecTimeout(harness.Timeout))
})

// reflectorStartWithin bounds StartConfigMapReflector: it only starts a goroutine, so it returns
// at once; waiting for the spec's timeout would only hide why it blocked.
const reflectorStartWithin = 5 * time.Second

// reflectorRunsInGoroutine is why StartConfigMapReflector blocks, when it does.
const reflectorRunsInGoroutine = "a Reflector's RunWithContext lists and watches until its context ends: a function that waits for it never returns, while the Reflector must keep running after the function has returned"

// listConfigMaps lists through a ListWatch, as a Reflector does first.
func listConfigMaps(ctx context.Context, lw cache.ListerWatcherWithContext) *corev1.ConfigMapList {
	GinkgoHelper()
	return listConfigMapsWith(ctx, lw, metav1.ListOptions{})
}

// listConfigMapsWith lists through a ListWatch with the given options.
func listConfigMapsWith(ctx context.Context, lw cache.ListerWatcherWithContext, options metav1.ListOptions) *corev1.ConfigMapList {
	GinkgoHelper()
	obj, err := lw.ListWithContext(ctx, options)
	Expect(err).NotTo(HaveOccurred(), "your ListWatch could not list")
	list, ok := obj.(*corev1.ConfigMapList)
	Expect(ok).To(BeTrue(), "listing ConfigMaps should return a *corev1.ConfigMapList, not %T", obj)
	return list
}

// watchUntil reads events from w until one reads last ("TYPE name"), and returns all it read.
func watchUntil(ctx context.Context, w watch.Interface, last string) []string {
	GinkgoHelper()
	var seen []string
	for !slices.Contains(seen, last) {
		var event watch.Event
		Eventually(w.ResultChan()).WithContext(ctx).Should(Receive(&event), "the watch delivered %v and then nothing; waiting for %q", seen, last)
		seen = append(seen, describeEvent(event))
	}
	return seen
}

// describeEvent is "TYPE name", such as "ADDED after".
func describeEvent(event watch.Event) string {
	if obj, err := meta.Accessor(event.Object); err == nil {
		return fmt.Sprintf("%s %s", event.Type, obj.GetName())
	}
	return string(event.Type)
}

// storedVersion polls the resourceVersion of a ConfigMap in a store; "" while it is absent.
func storedVersion(store cache.Store, namespace, name string) func() (string, error) {
	return func() (string, error) {
		obj, exists, err := store.GetByKey(namespace + "/" + name)
		if err != nil || !exists {
			return "", err
		}
		cm, ok := obj.(*corev1.ConfigMap)
		if !ok {
			return "", fmt.Errorf("the store holds a %T under %s/%s, not a *corev1.ConfigMap", obj, namespace, name)
		}
		return cm.ResourceVersion, nil
	}
}

// pointers turns a list's items into pointers, as names wants them.
func pointers[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}
