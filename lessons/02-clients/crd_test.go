package clients_test

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
)

// lessonGroup is the API group of this lesson's custom kind; cluster-scoped objects are named
// per lesson so lessons never step on each other.
const lessonGroup = "lesson02.workshop.local"

// widgets is the resource the Widget CRD serves at its storage version.
var widgets = schema.GroupVersionResource{Group: lessonGroup, Version: "v1", Resource: "widgets"}

// widgetCRD defines a namespaced kind Widget (resource "widgets", short name "wd") whose
// spec.size is an integer of at least 1. It is served at v1 and at v1beta1, so that discovery
// has a preferred version to choose. No Go type exists for it: only the dynamic client knows
// how to handle it.
func widgetCRD() *apiextensionsv1.CustomResourceDefinition {
	size := apiextensionsv1.JSONSchemaProps{Type: "integer", Minimum: ptr.To(1.0)}
	validation := &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"size": size}},
		},
	}}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets." + lessonGroup},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: lessonGroup,
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList", ShortNames: []string{"wd"},
			},
			// The first version is the one harness.EnsureCRD waits for in discovery.
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true, Schema: validation},
				{Name: "v1beta1", Served: true, Storage: false, Schema: validation},
			},
		},
	}
}

// gadgetCRD defines a second kind of the lesson's group, Gadget (resource "gadgets"), served at
// v1beta1 only. The group's preferred version is v1, which serves widgets but not gadgets:
// discovery lists gadgets at v1beta1, the one version that serves them.
func gadgetCRD() *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "gadgets." + lessonGroup},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: lessonGroup,
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "gadgets", Singular: "gadget", Kind: "Gadget", ListKind: "GadgetList",
			},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1beta1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: ptr.To(true),
				}},
			}},
		},
	}
}
