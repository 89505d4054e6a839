package clients

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Exercise 3: objects without Go types, through the dynamic client.
//
// The dynamic client needs no generated code: you name a resource by its GVR, and objects
// travel as *unstructured.Unstructured, a map[string]interface{} holding the JSON as it is:
//
//	apiVersion: lesson02.workshop.local/v1     u.Object["apiVersion"], or u.GetAPIVersion()
//	kind: Widget                               u.GetKind()
//	metadata: {name: w, namespace: ns}         u.GetName(), u.GetNamespace()
//	spec: {size: 3}                            unstructured.NestedInt64(u.Object, "spec", "size")
//
// That is how generic tools handle any kind, including kinds installed long after they were
// compiled (kubectl's apply --prune deletes through the dynamic client). Programs that need only
// each object's metadata use its metadata-only sibling, k8s.io/client-go/metadata, instead:
// the garbage collector and the namespace controller do.

// widgets is the resource of the Widget kind, a custom resource the specs install with a CRD
// (group lesson02.workshop.local, version v1, namespaced, with an integer spec.size of at
// least 1). No Go type exists for it, so the Clientset cannot handle it; the dynamic client can.
var widgets = schema.GroupVersionResource{Group: "lesson02.workshop.local", Version: "v1", Resource: "widgets"}

// configMaps is the resource of ConfigMaps: the core group (named ""), version v1.
var configMaps = corev1.SchemeGroupVersion.WithResource("configmaps")

// Exercise 3a: create a Widget of the given size.
//
// An object sent to the server must say what it is: set apiVersion and kind, as well as the
// name, the namespace and spec.size. Numbers in an Unstructured are int64 (or float64), never
// int. Return the created Widget, or the server's error as it is (a size of 0 breaks the
// CRD's validation: callers test that with apierrors.IsInvalid).
func CreateWidget(ctx context.Context, dc dynamic.Interface, namespace, name string, size int64) (*unstructured.Unstructured, error) {
	widget := &unstructured.Unstructured{}
	widget.SetAPIVersion(widgets.GroupVersion().String())
	widget.SetKind("Widget")
	widget.SetName(name)
	widget.SetNamespace(namespace)
	if err := unstructured.SetNestedField(widget.Object, size, "spec", "size"); err != nil {
		return nil, err
	}
	return dc.Resource(widgets).Namespace(namespace).Create(ctx, widget, metav1.CreateOptions{})
}

// Exercise 3b: read the spec.size of a Widget.
//
// Get the Widget by its GVR and dig the field out of the map. Return the server's error as it
// is (a missing Widget gives NotFound), and an error of your own that mentions spec.size when
// the Widget has none.
func WidgetSize(ctx context.Context, dc dynamic.Interface, namespace, name string) (int64, error) {
	widget, err := dc.Resource(widgets).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return 0, err
	}
	// found tells a missing field from a zero; err says spec or spec.size has the wrong type.
	size, found, err := unstructured.NestedInt64(widget.Object, "spec", "size")
	if err != nil {
		return 0, err
	}
	if !found {
		return 0, fmt.Errorf("widget %s/%s has no spec.size", namespace, name)
	}
	return size, nil
}

// Exercise 3c: create a ConfigMap through the dynamic client, converting on the way in and out.
//
// runtime.DefaultUnstructuredConverter turns a typed object into the map an Unstructured
// holds (ToUnstructured) and a map back into a typed object (FromUnstructured), through the
// objects' JSON field names. One catch: typed Go objects usually leave TypeMeta (apiVersion
// and kind) empty, because the Go type already says what they are. The map has no Go type,
// so set apiVersion "v1" and kind "ConfigMap" on it yourself: the server would guess them for
// a built-in kind from the URL, but not for a custom resource (3a), and code that handles
// Unstructured objects reads them. Do not modify cm.
func CreateConfigMap(ctx context.Context, dc dynamic.Interface, cm *corev1.ConfigMap) (*corev1.ConfigMap, error) {
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(cm)
	if err != nil {
		return nil, err
	}
	// The converter made a new map, so setting the kind here leaves cm alone.
	u := &unstructured.Unstructured{Object: content}
	u.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))

	created, err := dc.Resource(configMaps).Namespace(cm.Namespace).Create(ctx, u, metav1.CreateOptions{})
	if err != nil {
		return nil, err
	}
	typed := &corev1.ConfigMap{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(created.Object, typed); err != nil {
		return nil, err
	}
	return typed, nil
}
