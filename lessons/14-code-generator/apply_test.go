package pages_test

import (
	"context"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	pages "workshop.local/lessons/14-code-generator"
	"workshop.local/lessons/14-code-generator/pkg/apis/lesson14/v1alpha1"

	"workshop.local/lessons/internal/harness"
)

// owned is what the API server says manager owns of the Page ns/name: the operation of its
// managedFields entry for the main resource and the spec fields in it ("title", ...).
func owned(ctx context.Context, ns, name, manager string) (operation string, fields []string) {
	page, err := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns).Get(ctx, name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	for _, entry := range page.ManagedFields {
		if entry.Manager != manager || entry.Subresource != "" || entry.FieldsV1 == nil {
			continue
		}
		var set map[string]map[string]any
		Expect(json.Unmarshal(entry.FieldsV1.GetRawBytes(), &set)).To(Succeed())
		for f := range set["f:spec"] {
			fields = append(fields, f[len("f:"):])
		}
		return string(entry.Operation), fields
	}
	return "", nil
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
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Spec).To(Equal(v1alpha1.PageSpec{Title: "Shop", Body: "Buy"}), "ApplySpec should return the Page the API server answered")
		op, fields := owned(ctx, ns, "shop", "writer")
		Expect(op).To(Equal("Apply"), "the API server records no Apply by the manager \"writer\": use the generated client's Apply with ApplyOptions.FieldManager")
		Expect(fields).To(ConsistOf("title", "body"),
			"the manager should own exactly the fields its intent sets: an apply configuration that sets theme to \"\" owns theme too, and would fight whoever sets it")
	}, SpecTimeout(harness.Timeout))

	It("fails on another manager's field without force, and takes it over with force", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		c := pageClient(cluster.Config)
		_, err := pages.ApplySpec(ctx, c, ns, "blog", pages.Intent{Title: "Blog", Body: "Posts"}, "author", false)
		Expect(err).NotTo(HaveOccurred())

		_, err = pages.ApplySpec(ctx, c, ns, "blog", pages.Intent{Title: "My blog"}, "editor", false)
		Expect(apierrors.IsConflict(err)).To(BeTrue(), "a second manager setting a field the first owns to another value must get a conflict without force, got %v", err)
		Expect(getPage(ctx, ns, "blog").Spec.Title).To(Equal("Blog"))

		page, err := pages.ApplySpec(ctx, c, ns, "blog", pages.Intent{Title: "My blog"}, "editor", true)
		Expect(err).NotTo(HaveOccurred(), "with force, the apply takes the field over")
		Expect(page.Spec).To(Equal(v1alpha1.PageSpec{Title: "My blog", Body: "Posts"}))
		_, editor := owned(ctx, ns, "blog", "editor")
		_, author := owned(ctx, ns, "blog", "author")
		Expect(editor).To(ConsistOf("title"), "the forcing manager should own the title")
		Expect(author).To(ConsistOf("body"), "the first manager lost the title and keeps the body")
	}, SpecTimeout(harness.Timeout))

	It("gives up a field the manager no longer applies", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		c := pageClient(cluster.Config)
		_, err := pages.ApplySpec(ctx, c, ns, "faq", pages.Intent{Title: "FAQ", Theme: "light"}, "writer", false)
		Expect(err).NotTo(HaveOccurred())
		page, err := pages.ApplySpec(ctx, c, ns, "faq", pages.Intent{Title: "FAQ"}, "writer", false)
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Spec.Theme).To(BeEmpty(),
			"the manager applied its intent without the theme, which it alone owned: the API server removes it, if the same manager applies (one field manager name, always the same)")
	}, SpecTimeout(harness.Timeout))

	It("applies the status through the status subresource", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		_, err := pages.ApplySpec(ctx, pageClient(cluster.Config), ns, "docs", pages.Intent{Title: "Docs"}, "writer", false)
		Expect(err).NotTo(HaveOccurred())
		log := &harness.RequestLog{}
		page, err := pages.ApplyStatus(ctx, pageClient(log.Watching(cluster.Config)), ns, "docs", "page-docs", 1, "status-writer")
		Expect(err).NotTo(HaveOccurred())
		Expect(log.Writes()).To(ConsistOf("PATCH /apis/lesson14.workshop.local/v1alpha1/namespaces/"+ns+"/pages/docs/status"),
			"ApplyStatus should send one apply patch to the status subresource")
		Expect(page.Status).To(Equal(v1alpha1.PageStatus{ConfigMap: "page-docs", ObservedGeneration: 1}))
		Expect(getPage(ctx, ns, "docs").Status).To(Equal(page.Status))
	}, SpecTimeout(harness.Timeout))
})
