package operator

import (
	_ "embed"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// The CRD that `make generate` wrote from api/v1alpha1/staticsite_types.go, built into the package so the
// specs and `make run` install exactly what your markers say. It needs no edits: change the
// markers and run `make generate` instead.

//go:embed config/crd/lesson10.workshop.local_staticsites.yaml
var crdManifest []byte

// CRD returns the StaticSite CustomResourceDefinition from config/crd/.
func CRD() (*apiextensionsv1.CustomResourceDefinition, error) {
	var crd apiextensionsv1.CustomResourceDefinition
	return &crd, yaml.UnmarshalStrict(crdManifest, &crd)
}
