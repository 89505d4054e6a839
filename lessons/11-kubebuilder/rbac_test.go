//go:build workshop

package lesson11

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"workshop.local/lessons/internal/harness"
)

// The names kubebuilder's config/rbac/ gives the manager's Role, and the namespace of the
// --namespaced project's markers (config/default/kustomization.yaml deploys into it).
const (
	roleName       = "manager-role"
	roleNamespace  = "guestbook-system"
	serviceAccount = "controller-manager"
)

// generatedRole reads config/rbac/role.yaml and returns the Role `make manifests` wrote there
// from your +kubebuilder:rbac markers. It fails the spec, saying what to change, when the file
// holds anything else: a ClusterRole (a marker without namespace=), several Roles, or a rule
// that grants everything (*).
func generatedRole() *rbacv1.Role {
	GinkgoHelper()
	data, err := projectFile(roleFile)
	if errors.Is(err, fs.ErrNotExist) {
		Fail(roleFile + " does not exist: run make manifests in lessons/11-kubebuilder (it writes the Role from the +kubebuilder:rbac markers)")
	}
	Expect(err).NotTo(HaveOccurred())
	var roles []*rbacv1.Role
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := reader.Read()
		if err == io.EOF {
			break
		}
		Expect(err).NotTo(HaveOccurred(), "%s is not YAML: run make manifests to write it again", roleFile)
		var obj unstructured.Unstructured
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil || len(obj.Object) == 0 {
			continue
		}
		switch obj.GetKind() {
		case "ClusterRole":
			Fail(fmt.Sprintf("%s holds a ClusterRole %s: one of your +kubebuilder:rbac markers has no namespace=%s. In this --namespaced project the manager's rules come from the Role %s (config/rbac/role_binding.yaml, a RoleBinding); nothing binds a ClusterRole, so its rules would never apply: every rule of the manager must be in the Role of %s"+regenerate,
				roleFile, obj.GetName(), roleNamespace, roleName, roleNamespace))
		case "Role":
			var role rbacv1.Role
			Expect(yaml.Unmarshal(doc, &role)).To(Succeed())
			roles = append(roles, &role)
		}
	}
	if len(roles) != 1 || roles[0].Name != roleName || roles[0].Namespace != roleNamespace {
		var found []string
		for _, r := range roles {
			found = append(found, fmt.Sprintf("Role %s in namespace %q", r.Name, r.Namespace))
		}
		Fail(fmt.Sprintf("%s should hold one Role, %s in namespace %s, written by make manifests from markers with namespace=%s; it holds %v (kubebuilder's placeholder has no namespace: run make manifests)",
			roleFile, roleName, roleNamespace, roleNamespace, found))
	}
	for i, rule := range roles[0].Rules {
		if slices.Contains(rule.Verbs, "*") || slices.Contains(rule.Resources, "*") || slices.Contains(rule.APIGroups, "*") {
			Fail(fmt.Sprintf("rule %d of the Role in %s (apiGroups %q, resources %q, verbs %q) grants * (every verb, resource or group, today's and those added later): name the verbs and resources the controller uses, one marker per API group"+regenerate,
				i+1, roleFile, rule.APIGroups, rule.Resources, rule.Verbs))
		}
	}
	checkLeastSet(roles[0])
	return roles[0]
}

// needed are the verbs the manager sends, by API group and resource: the cache watches (a
// streaming list) and lists where that is refused or not served (the controller's reads are
// served by it: no get), a child is created or updated, the status
// updated; guestbooks/finalizers is the scaffold's rule for OwnerReferencesPermissionEnforcement
// (see the README). allowed adds what kubebuilder's scaffold grants on Guestbooks beyond that;
// on the children, whose rules are yours, nothing beyond.
var (
	needed = map[string][]string{
		group + "/guestbooks":            {"list", "watch"},
		group + "/guestbooks/status":     {"update"},
		group + "/guestbooks/finalizers": {"update"},
		"/configmaps":                    {"list", "watch", "create", "update"},
		"apps/deployments":               {"list", "watch", "create", "update"},
	}
	allowed = map[string][]string{
		group + "/guestbooks":        {"get", "create", "update", "patch", "delete"},
		group + "/guestbooks/status": {"get", "patch"},
	}
)

// checkLeastSet fails the spec when the Role grants a verb the manager never sends, or lacks one
// it sends (some only on paths the other specs may not take), naming them.
func checkLeastSet(role *rbacv1.Role) {
	GinkgoHelper()
	granted := map[string][]string{}
	for _, rule := range role.Rules {
		if len(rule.ResourceNames) > 0 {
			Fail(fmt.Sprintf("a rule of the Role in %s (resources %q) is limited to resourceNames %q: the manager lists, watches and creates, which no name limits", roleFile, rule.Resources, rule.ResourceNames))
		}
		for _, g := range rule.APIGroups {
			for _, r := range rule.Resources {
				granted[g+"/"+r] = append(granted[g+"/"+r], rule.Verbs...)
			}
		}
	}
	var missing, extra []string
	for key, verbs := range needed {
		for _, v := range verbs {
			if !slices.Contains(granted[key], v) {
				missing = append(missing, describeGrant(key, v))
			}
		}
	}
	for key, verbs := range granted {
		for _, v := range verbs {
			if !slices.Contains(needed[key], v) && !slices.Contains(allowed[key], v) {
				extra = append(extra, describeGrant(key, v))
			}
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	if len(missing) > 0 {
		Fail(fmt.Sprintf("the Role in %s does not grant what the manager sends: %s. Its cache watches (and lists, where a streaming list is not served) Guestbooks, ConfigMaps and Deployments, it creates and updates the children and updates the status (some of these only on paths a spec may not have taken yet)%s",
			roleFile, strings.Join(missing, ", "), regenerate))
	}
	if len(extra) > 0 {
		Fail(fmt.Sprintf("the Role in %s grants what the manager never sends: %s. A permission the controller does not use is one a bug or a stolen token can: its reads are served by its cache (watch, and list), it writes a child with create and update only, and the garbage collector, not the controller, deletes the children%s",
			roleFile, strings.Join(extra, ", "), regenerate))
	}
}

// describeGrant says a verb on a "group/resource" key as the API server's refusals do.
func describeGrant(key, verb string) string {
	g, r, _ := strings.Cut(key, "/")
	return fmt.Sprintf("%s %s in API group %q", verb, r, g)
}

// startUnderRole runs the manager as a ServiceAccount of namespace ns that has only the rules
// of the generated Role: it creates that Role in ns, the ServiceAccount and a RoleBinding, as
// `make deploy` would (config/rbac/), and gives the manager a kubeconfig that impersonates the
// ServiceAccount. It waits until the API server's authorizer knows the binding before it starts
// the manager.
func startUnderRole(ctx SpecContext, ns string) *running {
	GinkgoHelper()
	generated := generatedRole()
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: roleName}, Rules: generated.Rules}
	_, err := cluster.Clientset.RbacV1().Roles(ns).Create(ctx, role, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred(), "could not create the Role of %s in the spec's namespace", roleFile)
	_, err = cluster.Clientset.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: serviceAccount}}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "manager-rolebinding"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: roleName},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: serviceAccount, Namespace: ns}},
	}
	_, err = cluster.Clientset.RbacV1().RoleBindings(ns).Create(ctx, binding, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())

	user := "system:serviceaccount:" + ns + ":" + serviceAccount
	if len(role.Rules) > 0 && len(role.Rules[0].Verbs) > 0 && len(role.Rules[0].Resources) > 0 && len(role.Rules[0].APIGroups) > 0 {
		// The authorizer reads Roles and bindings from its informers, a moment behind: ask it
		// about the Role's first rule until it says yes, so the manager is not refused what the
		// Role grants in its first second.
		rule := role.Rules[0]
		resource, subresource, _ := strings.Cut(rule.Resources[0], "/")
		review := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
			User:   user,
			Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"},
			ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace: ns, Verb: rule.Verbs[0], Group: rule.APIGroups[0], Resource: resource, Subresource: subresource,
			},
		}}
		Eventually(func(g Gomega) bool {
			answer, err := cluster.Clientset.AuthorizationV1().SubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
			g.Expect(err).NotTo(HaveOccurred())
			return answer.Status.Allowed
		}).WithContext(ctx).WithTimeout(settle).Should(BeTrue(), "the API server did not apply the Role's binding in time")
	}
	return startManager(ctx, ns, user)
}

// refused is the end of exercise 3's failure messages: what the API server refused the
// manager, and where to grant it.
func refused(m *running) func() string {
	return func() string {
		messages := m.requests.refusals()
		if len(messages) == 0 {
			return "the manager did not do its part, and the API server refused it nothing." + m.diagnosis()
		}
		return fmt.Sprintf("the API server refused the manager (acting as %s, with only the Role of %s): %s. Each refusal names the verb, the resource and its API group (\"\" is the core group): the Role of %s should grant them%s",
			m.user, roleFile, strings.Join(messages, "; "), roleNamespace, regenerate)
	}
}

var _ = Describe("Exercise 3: RBAC from markers, proven by impersonation", harness.Exercise(3), func() {
	BeforeEach(func() { requireManager() })

	It("reconciles a new Guestbook with only the permissions of config/rbac/role.yaml", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		m := startUnderRole(ctx, ns)
		gb := create(ctx, newGuestbook(ns, "visitors", map[string]any{"title": "Visitors", "replicas": int64(1), "entries": []any{"hi"}}))
		Eventually(func(g Gomega) {
			g.Expect(page(g, ctx, gb)).To(controlledBy(gb))
			g.Expect(deployment(g, ctx, gb)).To(controlledBy(gb))
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed(), refused(m))
		waitReady(ctx, m, gb, 1)
		Eventually(status).WithArguments(ctx, gb).WithContext(ctx).WithTimeout(settle).Should(available(metav1.ConditionTrue, 1), refused(m))
		Expect(m.requests.refusals()).To(BeEmpty(), refused(m))
	}, SpecTimeout(harness.Timeout))

	It("follows changes and puts back a deleted child with only those permissions", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		m := startUnderRole(ctx, ns)
		gb := create(ctx, newGuestbook(ns, "visitors", map[string]any{"title": "Visitors", "replicas": int64(1)}))
		Eventually(func(g Gomega) { page(g, ctx, gb); deployment(g, ctx, gb) }).WithContext(ctx).WithTimeout(settle).Should(Succeed(), refused(m))

		changeSpec(ctx, gb, map[string]any{"replicas": int64(2), "entries": []any{"a new entry"}})
		Eventually(func(g Gomega) {
			g.Expect(deployment(g, ctx, gb).Spec.Replicas).To(HaveValue(Equal(int32(2))))
			g.Expect(page(g, ctx, gb).Data).To(HaveKeyWithValue("index.html", ContainSubstring("a new entry")))
		}).WithContext(ctx).WithTimeout(settle).Should(Succeed(), refused(m))

		old := page(Default, ctx, gb)
		Expect(cluster.Clientset.CoreV1().ConfigMaps(ns).Delete(ctx, old.Name, metav1.DeleteOptions{})).To(Succeed())
		Eventually(func(g Gomega) types.UID { return page(g, ctx, gb).UID }).WithContext(ctx).WithTimeout(settle).ShouldNot(Equal(old.UID), refused(m))
		Expect(m.requests.refusals()).To(BeEmpty(), refused(m))
	}, SpecTimeout(harness.Timeout))
})
