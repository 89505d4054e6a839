//go:build workshop

package lesson11

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/yaml"

	"workshop.local/lessons/internal/harness"
	"workshop.local/scripts/project"
)

// prefix starts the name of every namespace these specs create.
const prefix = "lesson11"

// settle is how long a spec waits for the API server or the manager to act on a change: each
// acts within a second, so 20 s is slack for a loaded machine (the manager is a process of its
// own, and starts in a second or two).
const settle = 20 * time.Second

// The project's files the specs read, relative to the lesson folder.
const (
	crdFile  = "config/crd/bases/webapp.lesson11.workshop.local_guestbooks.yaml"
	roleFile = "config/rbac/role.yaml"
)

// The Guestbook API, as the specs know it without importing your api/v1.
var (
	group     = "webapp.lesson11.workshop.local"
	guestbook = schema.GroupVersionResource{Group: group, Version: "v1", Resource: "guestbooks"}
	crdName   = "guestbooks." + group
)

// guestbooks is a client for the Guestbooks of namespace ns that talks to the API server
// directly.
func guestbooks(ns string) dynamic.ResourceInterface {
	return cluster.Dynamic.Resource(guestbook).Namespace(ns)
}

// newGuestbook is a Guestbook named name in namespace ns with spec (not created).
func newGuestbook(ns, name string, spec map[string]any) *unstructured.Unstructured {
	gb := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	gb.SetAPIVersion(group + "/v1")
	gb.SetKind("Guestbook")
	gb.SetNamespace(ns)
	gb.SetName(name)
	return gb
}

// projectFile reads a file of the project (rel to the lesson folder) as the build sees it:
// through the overlay the workshop's tools name in WORKSHOP_OVERLAY when they check a solution
// (it may replace the file, or add one the lesson lacks), from the disk otherwise.
func projectFile(rel string) ([]byte, error) {
	o, err := project.FromEnv()
	if err != nil {
		return nil, err
	}
	return o.ReadFile(rel)
}

// regenerate ends the failure messages about what the CRD or the Role say: a marker right in Go
// but missing from the cluster is usually a `make manifests` not run.
const regenerate = " (after changing a marker, run make manifests in lessons/11-kubebuilder)"

// requireCRD fails the spec at once when the run could not install your CRD.
func requireCRD() {
	GinkgoHelper()
	if setup.CRDProblem != "" {
		Fail(setup.CRDProblem)
	}
}

// readCRD reads and decodes the CRD `make manifests` wrote; the error says what to do.
func readCRD() (*apiextensionsv1.CustomResourceDefinition, error) {
	data, err := projectFile(crdFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist: run make manifests in lessons/11-kubebuilder (it writes the CRD from api/v1/guestbook_types.go)", crdFile)
	}
	if err != nil {
		return nil, err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		return nil, fmt.Errorf("%s is not a CRD (%v): run make manifests in lessons/11-kubebuilder to write it again", crdFile, err)
	}
	if crd.Name != crdName {
		return nil, fmt.Errorf("%s holds the CRD %q, not %s: run make manifests in lessons/11-kubebuilder to write it again", crdFile, crd.Name, crdName)
	}
	return &crd, nil
}

// applyCRD installs the CRD of config/crd/bases/, or updates the installed one to it: it
// changes whenever you change a marker and run `make manifests`, so every run applies its own,
// and the cluster serves the schema of the code being checked. It returns the CRD's
// fingerprint, or why it could not install it.
func applyCRD(ctx context.Context, c *harness.Cluster) (fingerprint, problem string) {
	GinkgoHelper()
	crd, err := readCRD()
	if err != nil {
		return "", err.Error()
	}
	fingerprint = addFingerprint(crd)
	crds := apiextensionsclient.NewForConfigOrDie(c.Config).ApiextensionsV1().CustomResourceDefinitions()
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		installed, err := crds.Get(ctx, crd.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			_, err = crds.Create(ctx, crd, metav1.CreateOptions{})
			return err
		}
		if err != nil {
			return err
		}
		crd.ResourceVersion = installed.ResourceVersion
		_, err = crds.Update(ctx, crd, metav1.UpdateOptions{})
		return err
	})
	if apierrors.IsInvalid(err) {
		return "", fmt.Sprintf("the API server refused the CRD of %s: %v%s", crdFile, err, regenerate)
	}
	Expect(err).NotTo(HaveOccurred(), "could not install the Guestbook CRD")
	Eventually(func(g Gomega) {
		got, err := crds.Get(ctx, crd.Name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.Status.Conditions).To(ContainElement(And(
			HaveField("Type", apiextensionsv1.Established), HaveField("Status", apiextensionsv1.ConditionTrue))))
	}).WithContext(ctx).WithTimeout(time.Minute).Should(Succeed(), "the Guestbook CRD was not Established within a minute")
	waitForFingerprint(ctx, c, fingerprint)
	return fingerprint, ""
}

// fingerprintField is a property the suite adds to the CRD's schema, defaulted to a hash of
// the whole CRD, so that it can tell when the API server serves exactly this version of it.
const fingerprintField = "workshopSchema"

// addFingerprint adds fingerprintField to the root of the CRD's schema, defaulted to a hash of
// the CRD as generated, and returns the hash.
func addFingerprint(crd *apiextensionsv1.CustomResourceDefinition) string {
	GinkgoHelper()
	data, err := json.Marshal(crd.Spec)
	Expect(err).NotTo(HaveOccurred())
	sum := sha256.Sum256(data)
	fingerprint := hex.EncodeToString(sum[:8])
	def, err := json.Marshal(fingerprint)
	Expect(err).NotTo(HaveOccurred())
	for i := range crd.Spec.Versions {
		if s := crd.Spec.Versions[i].Schema; s != nil && s.OpenAPIV3Schema != nil {
			if s.OpenAPIV3Schema.Properties == nil {
				s.OpenAPIV3Schema.Properties = map[string]apiextensionsv1.JSONSchemaProps{}
			}
			s.OpenAPIV3Schema.Properties[fingerprintField] = apiextensionsv1.JSONSchemaProps{Type: "string", Default: &apiextensionsv1.JSON{Raw: def}}
		}
	}
	return fingerprint
}

// waitForFingerprint waits until the API server defaults a new Guestbook's fingerprintField to
// fingerprint: then it validates, defaults and serves Guestbooks with the CRD just applied. The
// API server keeps one handler per CRD and rebuilds it when the CRD's spec changes
// (apiextensions-apiserver's crdHandler), a moment after the update.
func waitForFingerprint(ctx context.Context, c *harness.Cluster, fingerprint string) {
	GinkgoHelper()
	Eventually(func(g Gomega) any {
		probe := newGuestbook(metav1.NamespaceDefault, "schema-probe", map[string]any{"title": "probe"})
		created, err := c.Dynamic.Resource(guestbook).Namespace(metav1.NamespaceDefault).Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if apierrors.IsInvalid(err) {
			// Your schema refuses a Guestbook with only a title; the specs will say why.
			// Wait on the stored CRD instead.
			return installedFingerprint(g, ctx, c)
		}
		g.Expect(err).NotTo(HaveOccurred())
		return created.Object[fingerprintField]
	}).WithContext(ctx).WithTimeout(time.Minute).Should(Equal(fingerprint),
		"the API server did not start serving the Guestbook CRD of %s within a minute", crdFile)
}

// installedFingerprint is the fingerprint of the Guestbook CRD stored in the cluster now.
func installedFingerprint(g Gomega, ctx context.Context, c *harness.Cluster) string {
	crd, err := apiextensionsclient.NewForConfigOrDie(c.Config).ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crdName, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return "" // deleted
	}
	g.Expect(err).NotTo(HaveOccurred())
	for _, v := range crd.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		if p, ok := v.Schema.OpenAPIV3Schema.Properties[fingerprintField]; ok && p.Default != nil {
			var f string
			g.Expect(json.Unmarshal(p.Default.Raw, &f)).To(Succeed())
			return f
		}
	}
	return ""
}

// A CRD is cluster-wide: two checks of this lesson at once against one cluster (make watch and
// make check, say) would each install their own. After every spec the CRD must still be this
// run's; otherwise the spec's verdict might be the other run's schema at work.
var _ = AfterEach(func(ctx SpecContext) {
	if setup.Fingerprint == "" {
		return // this run installed no CRD
	}
	Expect(installedFingerprint(Default, ctx, cluster)).To(Equal(setup.Fingerprint),
		"the Guestbook CRD changed during this spec: another check of lesson 11 ran against this cluster at the same time, with other markers; check one at a time")
})

// buildManager builds the manager from ./cmd, as `make build` does (go build, in this folder,
// with the workspace's versions), through the overlay of the files being checked when there is
// one, and with it the probe (probe_test.go). It returns the binaries' folder and paths, or the
// compiler's output.
func buildManager(ctx context.Context) (dir, manager, probe, problem string) {
	GinkgoHelper()
	dir, err := os.MkdirTemp("", "lesson11-manager-")
	Expect(err).NotTo(HaveOccurred())
	overlay, err := probeOverlay(dir)
	Expect(err).NotTo(HaveOccurred())
	bin := filepath.Join(dir, "bin")
	// -s -w: no symbol table or debug info, which only a debugger reads (a panic's stack trace
	// still names files and lines). It makes each of the two links about a fifth cheaper.
	cmd := exec.CommandContext(ctx, "go", "build", "-ldflags=-s -w", "-o", bin+string(filepath.Separator), "-overlay="+overlay, "./cmd", "./cmd/lesson11probe")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return dir, "", "", fmt.Sprintf("the manager does not build (go build ./cmd in lessons/11-kubebuilder: %v): fix the compile error in the file it names:\n%s", err, strings.TrimSpace(string(out)))
	}
	return dir, filepath.Join(bin, "cmd"), filepath.Join(bin, "lesson11probe"), ""
}

// requireManager fails the spec at once when the manager did not build.
func requireManager() {
	GinkgoHelper()
	requireCRD()
	if setup.BuildProblem != "" {
		Fail(setup.BuildProblem)
	}
}

// field reads a field of obj by its path ("status.readyReplicas"); nil when it is not there.
func field(obj *unstructured.Unstructured, path string) any {
	v, found, err := unstructured.NestedFieldNoCopy(obj.Object, strings.Split(path, ".")...)
	if err != nil || !found {
		return nil
	}
	return v
}
