//go:build workshop

package lesson11

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"workshop.local/lessons/internal/harness"
)

// These specs check your kubebuilder project from the outside, as a user of it would: they
// install the CRD `make manifests` wrote, build the manager from ./cmd (the scaffold's
// cmd/main.go, with your api/ and internal/controller/), run it against the workshop cluster,
// and read what it did through the API server. They never import the project's packages. They
// are built only with the workshop tag (`make check` passes it), so the scaffold's own
// `make test` (go test ./...) does not run them.

var (
	// cluster is the workshop cluster the specs check your project against.
	cluster *harness.Cluster
	// setup is what the first parallel process prepared for all of them.
	setup suiteSetup
)

func TestLesson11(t *testing.T) {
	harness.RunSuite(t, "Lesson 11: a kubebuilder project")
}

// suiteSetup is what the first parallel process did once for the whole run: the CRD it
// installed (or why it could not) and the manager it built (or the compiler's words).
type suiteSetup struct {
	// CRDProblem says why the Guestbook CRD of config/crd/bases/ is not installed ("" when it is).
	CRDProblem string
	// Fingerprint is the fingerprint of the CRD this run installed (see addFingerprint).
	Fingerprint string
	// Manager is the path of the manager binary built from ./cmd.
	Manager string
	// Probe is the path of the probe that calls Reconcile (probe_test.go).
	Probe string
	// BuildProblem is the output of a `go build ./cmd` that failed ("" when it built).
	BuildProblem string
	// Dir is the temporary folder of the binary, removed after the run.
	Dir string
}

// The first function runs once, in the first parallel process: it installs (or updates) the
// Guestbook CRD that `make manifests` wrote from your markers, and builds the manager. The
// second runs in every process, with what the first returned.
var _ = SynchronizedBeforeSuite(func(ctx SpecContext) []byte {
	c := harness.Connect(ctx)
	s := suiteSetup{}
	s.Fingerprint, s.CRDProblem = applyCRD(ctx, c)
	if runsTheManager() {
		s.Dir, s.Manager, s.Probe, s.BuildProblem = buildManager(ctx)
	} else {
		s.BuildProblem = "the manager was not built: this run's label filter selects no exercise that runs it"
	}
	data, err := json.Marshal(s)
	Expect(err).NotTo(HaveOccurred())
	return data
}, func(ctx SpecContext, data []byte) {
	Expect(json.Unmarshal(data, &setup)).To(Succeed())
	cluster = harness.Connect(ctx)
}, NodeTimeout(10*time.Minute))

// The manager binary goes once every process is done with it.
var _ = SynchronizedAfterSuite(func() {}, func() {
	if setup.Dir != "" {
		Expect(os.RemoveAll(setup.Dir)).To(Succeed())
	}
})

// runsTheManager says whether this run's label filter selects an exercise whose specs run the
// manager or the probe (2, 3 and 5). A run of exercise 1 alone (make check EXERCISE=1) skips
// their build: two links of a controller-runtime program.
func runsTheManager() bool {
	selects, err := types.ParseLabelFilter(GinkgoLabelFilter())
	if err != nil {
		return true
	}
	for _, n := range []int{2, 3, 5} {
		if selects(harness.Exercise(n)) {
			return true
		}
	}
	return false
}
