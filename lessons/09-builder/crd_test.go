package sites_test

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// websiteCRD teaches the API server the Website kind (website_types.go). The suite installs it
// once; it is shared by every spec and never deleted. Its status subresource is what makes a
// status write leave metadata.generation alone (exercise 4).
var websiteCRD = &apiextensionsv1.CustomResourceDefinition{
	ObjectMeta: metav1.ObjectMeta{Name: "websites.lesson09.workshop.local"},
	Spec: apiextensionsv1.CustomResourceDefinitionSpec{
		Group: "lesson09.workshop.local",
		Scope: apiextensionsv1.NamespaceScoped,
		Names: apiextensionsv1.CustomResourceDefinitionNames{
			Plural: "websites", Singular: "website", Kind: "Website", ListKind: "WebsiteList",
		},
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
			Name: "v1", Served: true, Storage: true,
			Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
			Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
				Type: "object",
				Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"replicas": {Type: "integer", Format: "int32", Minimum: ptr.To(0.0)},
						"page":     {Type: "string"},
					}},
					"status": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"observedGeneration": {Type: "integer", Format: "int64"},
						"readyReplicas":      {Type: "integer", Format: "int32"},
					}},
				},
			}},
		}},
	},
}
