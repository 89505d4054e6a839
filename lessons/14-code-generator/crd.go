package pages

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CRD is the CustomResourceDefinition of Page, written out by hand: code-generator writes Go
// clients, not manifests (controller-gen, lesson 10, writes both). It needs no edits. The
// status subresource makes .status writable only through /status (UpdateStatus, ApplyStatus),
// and the spec writable only through the main resource.
func CRD() *apiextensionsv1.CustomResourceDefinition {
	str := apiextensionsv1.JSONSchemaProps{Type: "string"}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "pages.lesson14.workshop.local"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "lesson14.workshop.local",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "pages", Singular: "page", Kind: "Page", ListKind: "PageList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1alpha1", Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"title": str, "body": str, "theme": str}},
						"status": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"configMap": str, "observedGeneration": {Type: "integer", Format: "int64"},
						}},
					},
				}},
			}},
		},
	}
}
