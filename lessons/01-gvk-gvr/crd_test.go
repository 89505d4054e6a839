package gvkgvr_test

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// lessonGroup is the API group of this lesson's custom kinds; cluster-scoped objects are named
// per lesson so lessons never step on each other.
const lessonGroup = "lesson01.workshop.local"

// widgetCRD defines a namespaced kind Widget (resource "widgets") in group, with a scale
// subresource: like a Deployment, a Widget can be scaled through autoscaling/v1 Scale.
func widgetCRD(group string) *apiextensionsv1.CustomResourceDefinition {
	integer := apiextensionsv1.JSONSchemaProps{Type: "integer"}
	withReplicas := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"replicas": integer}}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList",
			},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type:       "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": withReplicas, "status": withReplicas},
				}},
				Subresources: &apiextensionsv1.CustomResourceSubresources{
					Scale: &apiextensionsv1.CustomResourceSubresourceScale{
						SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas",
					},
				},
			}},
		},
	}
}
