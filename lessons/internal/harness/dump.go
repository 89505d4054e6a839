package harness

import (
	"context"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// dumpNamespace writes the events and every object of a namespace to the failed spec's output.
func (c *Cluster) dumpNamespace(ctx context.Context, ns string) {
	GinkgoWriter.Printf("\n--- namespace %s when the spec failed ---\n", ns)
	c.dumpEvents(ctx, ns)
	c.dumpObjects(ctx, ns)
}

func (c *Cluster) dumpEvents(ctx context.Context, ns string) {
	events, err := c.Clientset.CoreV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		GinkgoWriter.Printf("events: could not list (%v)\n", err)
		return
	}
	sort.Slice(events.Items, func(i, j int) bool {
		return events.Items[i].LastTimestamp.Before(&events.Items[j].LastTimestamp)
	})
	GinkgoWriter.Printf("events (%d):\n", len(events.Items))
	for _, e := range events.Items {
		GinkgoWriter.Printf("  %s %s %s/%s: %s\n", e.Type, e.Reason, e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Message)
	}
}

// dumpObjects lists every namespaced resource the server offers, as `kubectl get all` would
// if "all" really meant all.
func (c *Cluster) dumpObjects(ctx context.Context, ns string) {
	lists, err := c.Clientset.Discovery().ServerPreferredNamespacedResources()
	if err != nil && len(lists) == 0 {
		GinkgoWriter.Printf("objects: discovery failed (%v)\n", err)
		return
	}
	GinkgoWriter.Println("objects:")
	for _, list := range lists {
		gv, _ := schema.ParseGroupVersion(list.GroupVersion)
		for _, r := range list.APIResources {
			if r.Name == "events" || strings.Contains(r.Name, "/") || !hasVerb(r, "list") {
				continue
			}
			items, err := c.Dynamic.Resource(gv.WithResource(r.Name)).Namespace(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				continue
			}
			for _, item := range items.Items {
				GinkgoWriter.Printf("  %s %s (resourceVersion %s)\n", r.Kind, item.GetName(), item.GetResourceVersion())
			}
		}
	}
}

func hasVerb(r metav1.APIResource, verb string) bool {
	for _, v := range r.Verbs {
		if v == verb {
			return true
		}
	}
	return false
}
