package pages_test

import (
	"context"
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	pages "workshop.local/lessons/14-code-generator"
	"workshop.local/lessons/14-code-generator/pkg/apis/lesson14/v1alpha1"

	"workshop.local/lessons/internal/harness"
)

// ownership is what the API server says one manager owns of a Page: the operation of its
// managedFields entry for the main resource, the spec fields in it ("title", ...) and the
// fields it owns outside the spec ("metadata.labels", ...).
type ownership struct {
	operation string
	spec      []string
	others    []string
}

// owned reads the ownership of manager on the Page ns/name from the API server.
func owned(ctx context.Context, ns, name, manager string) ownership {
	page, err := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns).Get(ctx, name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	for _, entry := range page.ManagedFields {
		if entry.Manager != manager || entry.Subresource != "" || entry.FieldsV1 == nil {
			continue
		}
		// A field set is a tree of "f:<name>" keys; "." stands for the map itself, and other
		// keys ("k:", "v:") for list items, which a Page's spec has none of.
		var set map[string]map[string]any
		Expect(json.Unmarshal(entry.FieldsV1.GetRawBytes(), &set)).To(Succeed())
		o := ownership{operation: string(entry.Operation)}
		for top, fields := range set {
			for f := range fields {
				name, ok := strings.CutPrefix(f, "f:")
				switch {
				case !ok:
				case top == "f:spec":
					o.spec = append(o.spec, name)
				default:
					o.others = append(o.others, strings.TrimPrefix(top, "f:")+"."+name)
				}
			}
		}
		return o
	}
	return ownership{}
}

func getPage(ctx context.Context, ns, name string) *v1alpha1.Page {
	page, err := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns).Get(ctx, name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	return page
}

var _ = Describe("Exercise 3: server-side apply with the generated apply configurations", harness.Exercise(3), func() {
	It("creates a Page with exactly the fields of the intent, owned by its manager through Apply", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		c := pageClient(cluster.Config)
		page, err := pages.ApplySpec(ctx, c, ns, "shop", pages.Intent{Title: "Shop", Body: "Buy"}, "writer", false)
		Expect(err).NotTo(HaveOccurred(), "ApplySpec failed on a Page that did not exist yet: an apply creates the object it names")
		Expect(page).NotTo(BeNil(), "ApplySpec returned no Page and no error")
		Expect(page.Spec).To(Equal(v1alpha1.PageSpec{Title: "Shop", Body: "Buy"}), "ApplySpec should return the Page the API server answered")
		o := owned(ctx, ns, "shop", "writer")
		Expect(o.operation).NotTo(BeEmpty(), "the API server records no write by the field manager \"writer\" on the Page: the manager's name is who the apply says it is")
		Expect(o.operation).To(Equal("Apply"),
			"the API server records the manager \"writer\"'s write as an %s, not an Apply: a create, update or non-apply patch is no server-side apply (never refused on a conflict, and a field it stops sending stays)", o.operation)
		Expect(o.spec).To(ConsistOf("title", "body"),
			"the manager should own exactly the fields its intent sets: an apply configuration that sets theme to \"\" owns theme too, and would fight whoever sets it")
		Expect(o.others).To(BeEmpty(),
			"the manager owns fields outside the spec (below) that the intent never asked for: an apply owns every field it sends, and another manager setting them gets a conflict")
	}, SpecTimeout(harness.Timeout))

	It("fails on another manager's field without force, and takes it over with force", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		c := pageClient(cluster.Config)
		_, err := pages.ApplySpec(ctx, c, ns, "blog", pages.Intent{Title: "Blog", Body: "Posts"}, "author", false)
		Expect(err).NotTo(HaveOccurred())

		_, err = pages.ApplySpec(ctx, c, ns, "blog", pages.Intent{Title: "My blog"}, "editor", false)
		Expect(apierrors.IsConflict(err)).To(BeTrue(), "a second manager set, without force, a field the first owns to another value and got no conflict (error: %v): the conflict is how the API server tells it someone else owns the field", err)
		Expect(getPage(ctx, ns, "blog").Spec.Title).To(Equal("Blog"))

		page, err := pages.ApplySpec(ctx, c, ns, "blog", pages.Intent{Title: "My blog"}, "editor", true)
		Expect(err).NotTo(HaveOccurred(), "the forced apply failed: with force, an apply takes the field over from its owner")
		Expect(page).NotTo(BeNil(), "ApplySpec returned no Page and no error")
		Expect(page.Spec).To(Equal(v1alpha1.PageSpec{Title: "My blog", Body: "Posts"}))
		Expect(owned(ctx, ns, "blog", "editor").spec).To(ConsistOf("title"), "the forcing manager should own the title, and only it")
		Expect(owned(ctx, ns, "blog", "author").spec).To(ConsistOf("body"), "the first manager lost the title and keeps the body")
	}, SpecTimeout(harness.Timeout))

	It("gives up a field the manager no longer applies", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		c := pageClient(cluster.Config)
		_, err := pages.ApplySpec(ctx, c, ns, "faq", pages.Intent{Title: "FAQ", Theme: "light"}, "writer", false)
		Expect(err).NotTo(HaveOccurred())
		page, err := pages.ApplySpec(ctx, c, ns, "faq", pages.Intent{Title: "FAQ"}, "writer", false)
		Expect(err).NotTo(HaveOccurred())
		Expect(page).NotTo(BeNil(), "ApplySpec returned no Page and no error")
		Expect(page.Spec.Theme).To(BeEmpty(),
			"the manager applied its intent without the theme, which it alone owned: the API server removes it, if the same manager applies (one field manager name, always the same)")
	}, SpecTimeout(harness.Timeout))

	It("applies the status through the status subresource, over the fields another manager wrote", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		c := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns)
		_, err := pages.ApplySpec(ctx, pageClient(cluster.Config), ns, "docs", pages.Intent{Title: "Docs"}, "writer", false)
		Expect(err).NotTo(HaveOccurred())
		// The status was written before, with UpdateStatus, as exercise 2's controller writes it:
		// its fields are owned by that manager, with another observedGeneration.
		page, err := c.Get(ctx, "docs", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		page.Status = v1alpha1.PageStatus{ConfigMap: "page-docs", ObservedGeneration: 1}
		_, err = c.UpdateStatus(ctx, page, metav1.UpdateOptions{FieldManager: "lesson14-pages"})
		Expect(err).NotTo(HaveOccurred())

		log := &harness.RequestLog{}
		applied, err := pages.ApplyStatus(ctx, pageClient(log.Watching(cluster.Config)), ns, "docs", "page-docs", 2, "status-writer")
		Expect(err).NotTo(HaveOccurred(),
			"ApplyStatus failed: the status fields were last written by another manager (an UpdateStatus, as exercise 2's controller writes them) with another observedGeneration, and the controller's report is its own to write: its status apply must win such a conflict")
		Expect(log.Writes()).To(ConsistOf("PATCH /apis/lesson14.workshop.local/v1alpha1/namespaces/"+ns+"/pages/docs/status"),
			"ApplyStatus should send one apply patch to the status subresource")
		Expect(applied).NotTo(BeNil(), "ApplyStatus returned no Page and no error")
		Expect(applied.Status).To(Equal(v1alpha1.PageStatus{ConfigMap: "page-docs", ObservedGeneration: 2}), "ApplyStatus should return the Page the API server answered, with the status it applied")
		Expect(getPage(ctx, ns, "docs").Status).To(Equal(applied.Status))
	}, SpecTimeout(harness.Timeout))
})
