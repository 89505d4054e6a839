package gvkgvr_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	gvkgvr "workshop.local/lessons/01-gvk-gvr"
	"workshop.local/lessons/internal/harness"
)

var (
	configMaps   = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	namespaces   = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	deployments  = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	clusterRoles = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
)

var _ = Describe("Exercise 2: RESTPath", harness.Exercise(2), func() {
	DescribeTable("builds the path client-go would request",
		func(gvr schema.GroupVersionResource, namespace, name, want string) {
			Expect(gvkgvr.RESTPath(gvr, namespace, name)).To(Equal(want))
		},
		Entry("a core object in a namespace", configMaps, "team-a", "settings", "/api/v1/namespaces/team-a/configmaps/settings"),
		Entry("a core collection in a namespace", configMaps, "team-a", "", "/api/v1/namespaces/team-a/configmaps"),
		Entry("a named-group collection", deployments, "team-a", "", "/apis/apps/v1/namespaces/team-a/deployments"),
		Entry("a cluster-scoped core object", namespaces, "", "team-a", "/api/v1/namespaces/team-a"),
		Entry("a cluster-scoped named-group object", clusterRoles, "", "view", "/apis/rbac.authorization.k8s.io/v1/clusterroles/view"),
	)

	It("builds paths the API server answers with the expected object", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson01")
		settings := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"a": "b"}}
		_, err := cluster.Clientset.CoreV1().ConfigMaps(ns).Create(ctx, settings, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())

		for _, c := range []struct {
			gvr                schema.GroupVersionResource
			namespace, name    string
			wantKind, wantName string
		}{
			{configMaps, ns, "settings", "ConfigMap", "settings"},
			{configMaps, ns, "", "ConfigMapList", ""},
			{deployments, ns, "", "DeploymentList", ""},
			{namespaces, "", ns, "Namespace", ns},
			{clusterRoles, "", "view", "ClusterRole", "view"},
		} {
			path := gvkgvr.RESTPath(c.gvr, c.namespace, c.name)
			raw, err := cluster.Clientset.CoreV1().RESTClient().Get().AbsPath(path).DoRaw(ctx)
			Expect(err).NotTo(HaveOccurred(), "GET %s failed: is it the path of %s?", path, c.gvr)
			var got struct {
				metav1.TypeMeta
				Metadata metav1.ObjectMeta `json:"metadata"`
			}
			Expect(json.Unmarshal(raw, &got)).To(Succeed())
			Expect(got.Kind).To(Equal(c.wantKind), "GET %s", path)
			Expect(got.Metadata.Name).To(Equal(c.wantName), "GET %s", path)
		}
	}, SpecTimeout(harness.Timeout))
})
