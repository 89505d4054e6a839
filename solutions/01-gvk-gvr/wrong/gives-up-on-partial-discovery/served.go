// Wrong (exercise 4): it gives up when any group version fails discovery, throwing away what every other group answered.
// ServerGroupsAndResources returns the lists it could read together with an error naming the
// group versions that failed. One aggregated API whose backend is down (a metrics-server that
// crashed) would then hide every deployments/scale and statefulsets/scale from the caller, and
// an autoscaler built on it would scale nothing.

package gvkgvr

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// Exercise 4: find every resource in the cluster that serves a given kind.
//
// A kind is a type of object; a resource is a URL that serves it. Most kinds have one resource,
// but some are served by many: autoscaling/v1 Scale is what the scale subresource of
// deployments, replicasets, statefulsets and replicationcontrollers (and of any CRD with a
// scale subresource) reads and writes. Subresources appear in discovery as "deployments/scale".
//
// When one group version fails to answer (an aggregated API whose server is down), the
// groups that did answer still count: return what they serve.
//
// ServedBy returns those resources; a subresource keeps its "parent/sub" name.
func ServedBy(ctx context.Context, dc discovery.DiscoveryInterfaceWithContext, gvk schema.GroupVersionKind) ([]schema.GroupVersionResource, error) {
	_, lists, err := dc.ServerGroupsAndResourcesWithContext(ctx)
	if err != nil {
		return nil, err
	}
	var served []schema.GroupVersionResource
	for _, list := range lists {
		listGV, err := schema.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			return nil, err
		}
		for _, r := range list.APIResources {
			if kindOf(listGV, r.Group, r.Version, r.Kind) == gvk {
				served = append(served, listGV.WithResource(r.Name))
			}
		}
	}
	return served, nil
}

// kindOf is the kind a resource serves. Empty Group and Version mean "the list's own" (legacy
// discovery leaves them empty for most resources; client-go fills them in from aggregated
// discovery); a subresource such as deployments/scale names another group and version there.
func kindOf(listGV schema.GroupVersion, group, version, kind string) schema.GroupVersionKind {
	gvk := listGV.WithKind(kind)
	if version != "" {
		gvk.Group, gvk.Version = group, version
	}
	return gvk
}
