package pages_test

import (
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"workshop.local/lessons/14-code-generator/pkg/apis/lesson14/v1alpha1"

	"workshop.local/lessons/internal/harness"
)

// yourAPI is the source of your API package as this test binary was built from it (with the
// solution overlaid, the solution's): the generators read these files.
//
//go:embed pkg/apis/lesson14/v1alpha1/*.go
var yourAPI embed.FS

var wantGV = schema.GroupVersion{Group: "lesson14.workshop.local", Version: "v1alpha1"}

var _ = Describe("Exercise 1: tags and registration", harness.Exercise(1), func() {
	Context("register.go", registerSpecs)
	// Ordered: the generators run once for the three specs (BeforeAll). ContinueOnFailure, and a
	// BeforeAll that never fails (it keeps each generator's error for the spec that reads its
	// output): every spec runs and reports, so the exercise always counts 5 specs, whichever fail.
	Context("the code your tags generate", Ordered, ContinueOnFailure, generatedSpecs)
})

// registerSpecs check SchemeGroupVersion and AddToScheme.
func registerSpecs() {
	It("registers Page and PageList, and the meta types, under lesson14.workshop.local/v1alpha1", func() {
		Expect(v1alpha1.SchemeGroupVersion).To(Equal(wantGV), "SchemeGroupVersion is not lesson14.workshop.local/v1alpha1: the generated clientset sends its requests to /apis/<group>/<version> of it")
		s := runtime.NewScheme()
		Expect(v1alpha1.AddToScheme(s)).To(Succeed())
		for _, obj := range []runtime.Object{&v1alpha1.Page{}, &v1alpha1.PageList{}} {
			gvks, _, err := s.ObjectKinds(obj)
			Expect(err).NotTo(HaveOccurred(), "AddToScheme did not register %T: a Scheme needs the list kind too (the fake clientset and Scheme-driven clients look it up)", obj)
			Expect(gvks).To(ContainElement(wantGV.WithKind(typeName(obj))), "%T is registered under another group version or kind", obj)
		}
		gvks, _, err := s.ObjectKinds(&metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred(),
			"AddToScheme registered no options types (ListOptions, GetOptions, ...): a client turns a call's options into query parameters through the options types of its own group version (metav1.AddToGroupVersion)")
		Expect(gvks).To(ContainElement(wantGV.WithKind("ListOptions")),
			"ListOptions is not registered in lesson14.workshop.local/v1alpha1: a client turns a call's options (List, Get, Delete...) into query parameters through the options types of its own group version (metav1.AddToGroupVersion)")
	})

	It("lets the generated clientset create and read a Page on the API server", func(ctx SpecContext) {
		ns := cluster.Namespace(ctx, "lesson14")
		c := pageClient(cluster.Config).Lesson14V1alpha1().Pages(ns)
		page := &v1alpha1.Page{ObjectMeta: metav1.ObjectMeta{Name: "hello"}, Spec: v1alpha1.PageSpec{Title: "Hello"}}
		_, err := c.Create(ctx, page, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred(), "the generated client's Create failed: it sends to the group version of SchemeGroupVersion, with the codecs of the scheme AddToScheme filled")
		got, err := c.Get(ctx, "hello", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Spec.Title).To(Equal("Hello"))
		list, err := c.List(ctx, metav1.ListOptions{Limit: 10})
		Expect(err).NotTo(HaveOccurred(), "the generated client's List with options failed: its options become query parameters through the options types registered in the Page's group version")
		Expect(list.Items).To(HaveLen(1))
	}, SpecTimeout(harness.Timeout))
}

// typeName is the Go type name of obj ("Page", "PageList").
func typeName(obj runtime.Object) string {
	switch obj.(type) {
	case *v1alpha1.Page:
		return "Page"
	default:
		return "PageList"
	}
}

// generatedSpecs run the generators once on your API package and compare with the committed code.
func generatedSpecs() {
	var gen generated // what the pinned generators make of your API package

	BeforeAll(func(ctx SpecContext) {
		gen = runGenerators(ctx)
	}, NodeTimeout(4*harness.Timeout))

	It("writes deep copy functions, and DeepCopyObject for Page and PageList (+k8s:deepcopy-gen tags)", func() {
		gen.expectRan("deepcopy-gen")
		data, err := os.ReadFile(filepath.Join(gen.dir, "pkg/apis/lesson14/v1alpha1/zz_generated.deepcopy.go"))
		Expect(err).NotTo(HaveOccurred(), "deepcopy-gen wrote no zz_generated.deepcopy.go: it writes deep copies only for a package whose doc.go turns them on (the +k8s:deepcopy-gen package tag), or for types tagged one by one")
		Expect(string(data)).To(ContainSubstring("func (in *Page) DeepCopyObject() runtime.Object"),
			"deepcopy-gen wrote no DeepCopyObject for Page, so *Page is no runtime.Object, what a Scheme and every client take (the +k8s:deepcopy-gen:interfaces tag of a type)")
		Expect(string(data)).To(ContainSubstring("func (in *PageList) DeepCopyObject() runtime.Object"),
			"deepcopy-gen wrote no DeepCopyObject for PageList: a list is a runtime.Object too, what List returns")
		expectCommitted(gen.dir, "pkg/apis/lesson14/v1alpha1/zz_generated.deepcopy.go")
	})

	It("writes a typed client for pages, and none for a list (+genclient on Page only)", func() {
		gen.expectRan("client-gen")
		_, err := os.Stat(filepath.Join(gen.dir, "pkg/generated/clientset/versioned/typed/lesson14/v1alpha1/page.go"))
		Expect(err).NotTo(HaveOccurred(), "client-gen wrote no typed client for Page (typed/lesson14/v1alpha1/page.go): it writes one for each kind tagged for a client")
		_, err = os.Stat(filepath.Join(gen.dir, "pkg/generated/clientset/versioned/typed/lesson14/v1alpha1/pagelist.go"))
		Expect(os.IsNotExist(err)).To(BeTrue(), "client-gen wrote a client for PageList, a resource \"pagelists\" that the API server does not serve: a list is no kind to talk to, the client of Page lists them")
		expectCommittedTree(gen.dir, "pkg/generated/clientset")
	})

	// The clientset's requests go to register.go's SchemeGroupVersion (the generated
	// setConfigDefaults copies it); +groupName names the group in what the generators write
	// themselves: the apply configurations' apiVersion, the informers' GroupVersionResource, and
	// in client-gen the clientset's Go names (from the group's first field) and comments.
	It("writes apply configurations whose apiVersion is lesson14.workshop.local/v1alpha1 (+groupName)", func() {
		gen.expectRan("applyconfiguration-gen")
		data, err := os.ReadFile(filepath.Join(gen.dir, "pkg/generated/applyconfiguration/lesson14/v1alpha1/page.go"))
		Expect(err).NotTo(HaveOccurred(), "applyconfiguration-gen wrote no apply configuration for Page (lesson14/v1alpha1/page.go): it writes Page(name, namespace) for each kind tagged for a client")
		Expect(string(data)).To(ContainSubstring(`WithAPIVersion("lesson14.workshop.local/v1alpha1")`),
			"the apply configuration's apiVersion is not lesson14.workshop.local/v1alpha1: the generators take the group from the package's +groupName tag, and without one from the folder's name (lesson14)")
		expectCommittedTree(gen.dir, "pkg/generated/applyconfiguration")
	})
}

// generated is what runGenerators made: the folder they wrote to, and each generator's error.
type generated struct {
	dir    string
	failed map[string]error // by generator ("deepcopy-gen"); a missing one ran fine
}

// expectRan fails the spec when the generator failed on your API package.
func (g generated) expectRan(tool string) {
	Expect(g.dir).NotTo(BeEmpty(), "the generators did not run (see the failure above)")
	Expect(g.failed[tool]).NotTo(HaveOccurred(), "%s failed on your API package: a tag it cannot read, or Go code that does not compile", tool)
}

// runGenerators copies your API package and the lesson's go.mod to a scratch module and runs
// the generators there, as lesson.yaml declares them (make generate runs the same), each with
// `go tool -modfile=tools/go.mod`, which keeps the built tool in Go's build cache. The first
// step (deepcopy-gen) writes beside your types; the others only read them, each into a folder
// of its own, so they run at once. A generator that fails does not stop the others: its error
// is kept for the spec that reads its output.
//
// lister-gen and informer-gen are left out: they read exactly the tags client-gen reads
// (+genclient and its verbs and nonNamespaced, +groupName: see their generators' use of
// util.MustParseClientGenTags and GroupNameForPackage in k8s.io/code-generator), so a tag that
// would change a lister or an informer changes the clientset too, which the specs compare.
// Leaving them out saves two generator runs per check.
func runGenerators(ctx context.Context) generated {
	dir := GinkgoT().TempDir()
	src, out := filepath.Join(dir, "src"), filepath.Join(dir, "out")
	lesson, err := filepath.Abs(".")
	Expect(err).NotTo(HaveOccurred())
	copyModule(lesson, src)
	type step struct {
		Tool string   `json:"tool"`
		Args []string `json:"args"`
	}
	var manifest struct {
		Generate struct {
			Steps []step `json:"steps"`
		} `json:"generate"`
	}
	data, err := os.ReadFile("lesson.yaml")
	Expect(err).NotTo(HaveOccurred())
	Expect(yaml.Unmarshal(data, &manifest)).To(Succeed())
	steps := slices.DeleteFunc(manifest.Generate.Steps, func(s step) bool {
		return strings.HasSuffix(s.Tool, "/lister-gen") || strings.HasSuffix(s.Tool, "/informer-gen")
	})
	Expect(steps).To(HaveLen(3), "lesson.yaml should list deepcopy-gen first, then applyconfiguration-gen and client-gen among its steps")
	run := func(i int) error {
		args := []string{"tool", "-modfile=" + filepath.Join(lesson, "tools", "go.mod"), filepath.Base(steps[i].Tool)}
		for _, a := range steps[i].Args {
			args = append(args, strings.NewReplacer("{out}", out, "{lesson}", lesson).Replace(a))
		}
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir, cmd.Env = src, append(os.Environ(), "GOWORK=off")
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%w\n%s", err, b)
		}
		return nil
	}
	gen := generated{dir: out, failed: map[string]error{}}
	if err := run(0); err != nil {
		gen.failed[filepath.Base(steps[0].Tool)] = err
	}
	type result struct {
		tool string
		err  error
	}
	results := make(chan result, len(steps))
	for i := 1; i < len(steps); i++ {
		go func() { results <- result{filepath.Base(steps[i].Tool), run(i)} }()
	}
	for i := 1; i < len(steps); i++ {
		if r := <-results; r.err != nil {
			gen.failed[r.tool] = r.err
		}
	}
	// deepcopy-gen writes beside the types it reads
	deepcopy := "pkg/apis/lesson14/v1alpha1/zz_generated.deepcopy.go"
	if data, err := os.ReadFile(filepath.Join(src, deepcopy)); err == nil {
		writeFile(filepath.Join(out, deepcopy), data)
	}
	return gen
}

// copyModule writes your API package (as embedded) and the lesson's go.mod and go.sum, with
// absolute replaces, to src.
func copyModule(lesson, src string) {
	entries, err := yourAPI.ReadDir("pkg/apis/lesson14/v1alpha1")
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "zz_generated") {
			continue // generated: the generators make it afresh
		}
		data, err := yourAPI.ReadFile("pkg/apis/lesson14/v1alpha1/" + e.Name())
		Expect(err).NotTo(HaveOccurred())
		// The solution overlay compiles doc.go as doc_overlaid.go: give it its name back, the
		// generators read package tags from doc.go only.
		name := strings.Replace(e.Name(), "_overlaid.go", ".go", 1)
		writeFile(filepath.Join(src, "pkg/apis/lesson14/v1alpha1", name), data)
	}
	gomod, err := os.ReadFile("go.mod")
	Expect(err).NotTo(HaveOccurred())
	gomod = []byte(strings.NewReplacer("=> ../internal", "=> "+filepath.Join(lesson, "../internal"),
		"=> ../../scripts", "=> "+filepath.Join(lesson, "../../scripts")).Replace(string(gomod)))
	writeFile(filepath.Join(src, "go.mod"), gomod)
	gosum, err := os.ReadFile("go.sum")
	Expect(err).NotTo(HaveOccurred())
	writeFile(filepath.Join(src, "go.sum"), gosum)
}

func writeFile(path string, data []byte) {
	Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
	Expect(os.WriteFile(path, data, 0o644)).To(Succeed())
}

// expectCommitted says the generated file is the lesson's committed one, comments aside:
// applyconfiguration-gen copies the comments above each type into its output (without the tag
// lines), and yours need not be the solution's words.
func expectCommitted(generated, file string) {
	want, err := os.ReadFile(file)
	Expect(err).NotTo(HaveOccurred())
	got, err := os.ReadFile(filepath.Join(generated, file))
	Expect(err).NotTo(HaveOccurred(), "the generators wrote no %s from your tags", file)
	Expect(withoutComments(got)).To(Equal(withoutComments(want)),
		"%s generated from your tags differs from the committed one (generated from the solution's)", file)
}

// withoutComments is Go source without its comment lines.
func withoutComments(src []byte) string {
	var code []string
	for _, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			code = append(code, line)
		}
	}
	return strings.Join(code, "\n")
}

// expectCommittedTree says the generators wrote exactly the committed files under tree.
func expectCommittedTree(generated, tree string) {
	list := func(root string) []string {
		var files []string
		_ = filepath.WalkDir(filepath.Join(root, tree), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, path)
				files = append(files, rel)
			}
			return nil
		})
		return files
	}
	committed := list(".")
	Expect(list(generated)).To(Equal(committed), "the files your tags generate under %s differ from the committed ones", tree)
	for _, f := range committed {
		expectCommitted(generated, f)
	}
}
