package gvkgvr_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	gvkgvr "workshop.local/lessons/01-gvk-gvr"
	"workshop.local/lessons/internal/harness"
)

var _ = Describe("Exercise 1: ParseGVK", harness.Exercise(1), func() {
	DescribeTable("splits apiVersion and kind",
		func(apiVersion, kind string, want schema.GroupVersionKind) {
			got, err := gvkgvr.ParseGVK(apiVersion, kind)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "ParseGVK(%q, %q)", apiVersion, kind)
		},
		Entry("the core group has no name", "v1", "Pod", schema.GroupVersionKind{Version: "v1", Kind: "Pod"}),
		Entry("a named group", "apps/v1", "Deployment", schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}),
		Entry("a dotted group", "apiextensions.k8s.io/v1", "CustomResourceDefinition",
			schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}),
	)

	DescribeTable("rejects what is not a GroupVersionKind",
		func(apiVersion, kind string) {
			_, err := gvkgvr.ParseGVK(apiVersion, kind)
			Expect(err).To(HaveOccurred(), "ParseGVK(%q, %q) should fail", apiVersion, kind)
			Expect(err.Error()).NotTo(ContainSubstring("not implemented yet"), "exercise 1 is still the stub")
		},
		Entry("an empty apiVersion", "", "Pod"),
		Entry("more than one slash", "apps/v1/extra", "Deployment"),
		Entry("no version after the group", "apps/", "Deployment"),
		Entry("an empty kind", "v1", ""),
	)

	It("parses what the API server says an object is", func(ctx SpecContext) {
		// The server sets apiVersion and kind on the wire; typed Go clients drop them on decode,
		// so fetch the raw JSON of a core and a named-group object.
		for path, want := range map[string]schema.GroupVersionKind{
			"/api/v1/namespaces/default":                           {Version: "v1", Kind: "Namespace"},
			"/apis/rbac.authorization.k8s.io/v1/clusterroles/view": {Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"},
		} {
			raw, err := cluster.Clientset.CoreV1().RESTClient().Get().AbsPath(path).DoRaw(ctx)
			Expect(err).NotTo(HaveOccurred())
			var typeMeta metav1.TypeMeta
			Expect(json.Unmarshal(raw, &typeMeta)).To(Succeed())
			got, err := gvkgvr.ParseGVK(typeMeta.APIVersion, typeMeta.Kind)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "the object at %s", path)
		}
	}, SpecTimeout(harness.Timeout))
})
