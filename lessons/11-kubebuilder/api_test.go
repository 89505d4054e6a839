//go:build workshop

package lesson11

import (
	"encoding/json"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"workshop.local/lessons/internal/harness"
)

// Every spec of exercise 1 asks the real API server, with the CRD your markers generated
// (config/crd/bases/, installed by the suite). The suite has already waited until the API
// server serves exactly that CRD, so from then on its answers are those of your markers. The
// specs still ask through Eventually, but only for a moment (served), not a controller's wait.
const served = 5 * time.Second

// dryRun creates nothing: the API server checks and defaults the object, and answers as if.
var dryRun = metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}

// valid is the spec of a Guestbook every rule accepts.
func valid() map[string]any { return map[string]any{"title": "Visitors", "replicas": int64(2)} }

// with is spec with key set to value (or removed, for nil).
func with(spec map[string]any, key string, value any) map[string]any {
	if value == nil {
		delete(spec, key)
	} else {
		spec[key] = value
	}
	return spec
}

// repeat is n copies of s, for entries.
func repeat(n int, s string) []any {
	list := make([]any, n)
	for i := range list {
		list[i] = s
	}
	return list
}

var _ = Describe("Exercise 1: the Guestbook API, validated by the API server", harness.Exercise(1), func() {
	BeforeEach(func() { requireCRD() })

	DescribeTable("refuses a Guestbook that breaks a rule, naming the field",
		func(ctx SpecContext, spec map[string]any, path, message, why string) {
			ns := cluster.Namespace(ctx, prefix)
			Eventually(func(g Gomega) {
				_, err := guestbooks(ns).Create(ctx, newGuestbook(ns, "bad", spec), dryRun)
				g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "the API server accepted it (error: %v): %s"+regenerate, err, why)
				g.Expect(err.Error()).To(And(ContainSubstring(path), ContainSubstring(message)),
					"the API server refused it, but not for %s (%q): %s", path, message, why)
			}).WithContext(ctx).WithTimeout(served).Should(Succeed())
		},
		Entry("more than 5 replicas", with(valid(), "replicas", int64(6)), "spec.replicas", "less than or equal to 5",
			"replicas go from 1 to 5: a Maximum marker on the field", SpecTimeout(harness.Timeout)),
		Entry("no replicas at all (0)", with(valid(), "replicas", int64(0)), "spec.replicas", "greater than or equal to 1",
			"replicas go from 1 to 5: a Minimum marker on the field (a 0 that is sent is checked, only a field left out gets the default)", SpecTimeout(harness.Timeout)),
		Entry("a theme that is neither light nor dark", with(valid(), "theme", "blue"), "spec.theme", `Unsupported value: "blue"`,
			"theme is light or dark, and nothing else", SpecTimeout(harness.Timeout)),
		Entry("no title", with(valid(), "title", nil), "spec.title", "Required value",
			"a guestbook needs a title: the CRD should list spec.title as required", SpecTimeout(harness.Timeout)),
		Entry("an empty title", with(valid(), "title", ""), "spec.title", "at least 1 chars long",
			"a title has 1 to 64 characters: a MinLength marker (a required string may still be empty)", SpecTimeout(harness.Timeout)),
		Entry("a title of 65 characters", with(valid(), "title", strings.Repeat("t", 65)), "spec.title", "may not be more than 64 bytes",
			"a title has 1 to 64 characters: a MaxLength marker", SpecTimeout(harness.Timeout)),
		Entry("11 entries", with(valid(), "entries", repeat(11, "hello")), "spec.entries", "must have at most 10 items",
			"a guestbook holds at most 10 entries: a MaxItems marker on the list", SpecTimeout(harness.Timeout)),
		Entry("an entry of 141 characters", with(valid(), "entries", repeat(1, strings.Repeat("e", 141))), "spec.entries[0]", "may not be more than 140 bytes",
			"each entry has 1 to 140 characters: a rule on the list's items, not on the list", SpecTimeout(harness.Timeout)),
		Entry("an empty entry", with(valid(), "entries", repeat(1, "")), "spec.entries[0]", "at least 1 chars long",
			"each entry has 1 to 140 characters: an empty string is an entry too, and needs a rule on the list's items", SpecTimeout(harness.Timeout)),
	)

	DescribeTable("accepts a Guestbook within the rules, and keeps every field",
		func(ctx SpecContext, spec map[string]any, why string) {
			ns := cluster.Namespace(ctx, prefix)
			Eventually(func(g Gomega) {
				created, err := guestbooks(ns).Create(ctx, newGuestbook(ns, "good", spec), dryRun)
				g.Expect(err).NotTo(HaveOccurred(), why+regenerate)
				for key, value := range spec {
					g.Expect(created.Object["spec"]).To(HaveKeyWithValue(key, value),
						"spec.%s came back changed or dropped: the API server drops a field the CRD does not declare (is %s a field of GuestbookSpec, with json:\"%s\"?)"+regenerate, key, key, key)
				}
			}).WithContext(ctx).WithTimeout(served).Should(Succeed())
		},
		Entry("the most of everything", map[string]any{
			"title": strings.Repeat("t", 64), "replicas": int64(5), "theme": "dark", "entries": repeat(10, strings.Repeat("e", 140)),
		}, "64 characters of title, 5 replicas, the dark theme and 10 entries of 140 characters are all allowed: the bounds are inclusive", SpecTimeout(harness.Timeout)),
		Entry("the least of everything", map[string]any{
			"title": "t", "replicas": int64(1), "theme": "light", "entries": repeat(1, "e"),
		}, "a title of 1 character, 1 replica, the light theme and one entry of 1 character are all allowed", SpecTimeout(harness.Timeout)),
	)

	It("fills in replicas and theme when they are left out", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		Eventually(func(g Gomega) {
			created, err := guestbooks(ns).Create(ctx, newGuestbook(ns, "defaults", map[string]any{"title": "Defaults"}), dryRun)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(created.Object["spec"]).To(And(HaveKeyWithValue("replicas", BeNumerically("==", 1)), HaveKeyWithValue("theme", "light")),
				"a Guestbook with only a title should come back with replicas: 1 and theme: light, filled in by the API server"+regenerate)
		}).WithContext(ctx).WithTimeout(served).Should(Succeed())
	}, SpecTimeout(harness.Timeout))

	It("refuses a change of the title, and takes changes of the other fields", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		created, err := guestbooks(ns).Create(ctx, newGuestbook(ns, "fixed", map[string]any{"title": "First", "replicas": int64(1)}), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		update := metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}}
		Eventually(func(g Gomega) {
			retitled := created.DeepCopy()
			g.Expect(unstructured.SetNestedField(retitled.Object, "Second", "spec", "title")).To(Succeed())
			_, err := guestbooks(ns).Update(ctx, retitled, update)
			g.Expect(apierrors.IsInvalid(err)).To(BeTrue(),
				"the API server took a new title (error: %v): the title cannot change once the Guestbook exists (a transition rule, checked on updates)"+regenerate, err)
			g.Expect(err.Error()).To(ContainSubstring("spec.title"), "the API server refused the new title, but the error does not name spec.title: put the rule on the title field itself")
		}).WithContext(ctx).WithTimeout(served).Should(Succeed())

		changed := created.DeepCopy()
		Expect(unstructured.SetNestedField(changed.Object, int64(3), "spec", "replicas")).To(Succeed())
		Expect(unstructured.SetNestedSlice(changed.Object, []any{"hello"}, "spec", "entries")).To(Succeed())
		_, err = guestbooks(ns).Update(ctx, changed, update)
		Expect(err).NotTo(HaveOccurred(), "a change of replicas and entries (the title as it was) should be allowed: only the title is fixed; a rule self == oldSelf above the whole spec fixes every field")
	}, SpecTimeout(harness.Timeout))

	It("keeps status apart from spec (the status subresource)", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		created, err := guestbooks(ns).Create(ctx, newGuestbook(ns, "status", map[string]any{"title": "Status", "replicas": int64(1)}), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		withStatus := created.DeepCopy()
		withStatus.Object["status"] = map[string]any{"observedGeneration": int64(1), "readyReplicas": int64(1)}
		_, err = guestbooks(ns).UpdateStatus(ctx, withStatus, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred(), "writing .../guestbooks/<name>/status failed: the CRD should serve the status subresource"+regenerate)

		got, err := guestbooks(ns).Get(ctx, "status", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Object["status"]).To(And(HaveKeyWithValue("readyReplicas", BeNumerically("==", 1)), HaveKeyWithValue("observedGeneration", BeNumerically("==", 1))),
			"the status written through the status subresource should be stored: are observedGeneration and readyReplicas fields of GuestbookStatus?"+regenerate)
		Expect(got.GetGeneration()).To(BeNumerically("==", 1), "a write of the status must not change metadata.generation")

		Expect(unstructured.SetNestedField(got.Object, int64(2), "spec", "replicas")).To(Succeed())
		Expect(unstructured.SetNestedField(got.Object, int64(5), "status", "readyReplicas")).To(Succeed())
		updated, err := guestbooks(ns).Update(ctx, got, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred(), "an update that changes spec.replicas (and tries to change the status) should be allowed")
		Expect(field(updated, "status.readyReplicas")).To(BeNumerically("==", 1),
			"with a status subresource, a write of the whole object leaves its status as it was (only .../status writes it), yet this one changed it"+regenerate)
		Expect(updated.GetGeneration()).To(BeNumerically("==", 2), "a change of the spec should count in metadata.generation")
	}, SpecTimeout(harness.Timeout))

	It("shows Title, Replicas, Ready, Available and Age in kubectl get (printer columns)", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, prefix)
		created, err := guestbooks(ns).Create(ctx, newGuestbook(ns, "columns", map[string]any{"title": "Columns", "replicas": int64(3)}), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		now := metav1.Now().UTC().Format(time.RFC3339)
		created.Object["status"] = map[string]any{"observedGeneration": int64(1), "readyReplicas": int64(2), "conditions": []any{
			map[string]any{"type": "Progressing", "status": "False", "reason": "Done", "message": "", "lastTransitionTime": now},
			map[string]any{"type": "Available", "status": "True", "reason": "Ready", "message": "", "lastTransitionTime": now},
		}}
		_, err = guestbooks(ns).UpdateStatus(ctx, created, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred(), "writing the status failed: the CRD needs a status subresource"+regenerate)
		Eventually(tableRow).WithArguments(ctx, ns).WithContext(ctx).WithTimeout(served).Should(And(
			HaveKeyWithValue("Title", "Columns"),
			HaveKeyWithValue("Replicas", BeNumerically("==", 3)),
			HaveKeyWithValue("Ready", BeNumerically("==", 2)),
			HaveKeyWithValue("Available", "True"),
			HaveKey("Age"),
		), "kubectl get guestbooks should show the columns Title (.spec.title), Replicas (.spec.replicas), Ready (.status.readyReplicas), Available (the status of the condition of type Available, wherever it is in the list) and Age"+regenerate)
		Expect(tableRow(Default, ctx, ns)).To(HaveKeyWithValue("Age", MatchRegexp(`^[0-9]+[smhdy]`)),
			"the Age column should show how old the guestbook is, such as 5s, not the timestamp itself"+regenerate)
	}, SpecTimeout(harness.Timeout))
})

// tableRow asks the API server for the namespace's Guestbooks as kubectl get does (as a Table,
// drawn from the CRD's printer columns) and returns the first row's cells by column name.
func tableRow(g Gomega, ctx SpecContext, ns string) map[string]any {
	raw, err := cluster.Clientset.Discovery().RESTClient().Get().
		AbsPath("/apis", group, "v1", "namespaces", ns, "guestbooks").
		SetHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").
		Do(ctx).Raw()
	g.Expect(err).NotTo(HaveOccurred())
	var table metav1.Table
	g.Expect(json.Unmarshal(raw, &table)).To(Succeed())
	g.Expect(table.Rows).NotTo(BeEmpty())
	row := map[string]any{}
	for i, column := range table.ColumnDefinitions {
		row[column.Name] = table.Rows[0].Cells[i]
	}
	return row
}
