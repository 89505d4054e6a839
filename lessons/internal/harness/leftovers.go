package harness

import (
	"context"

	. "github.com/onsi/ginkgo/v2"

	"workshop.local/scripts/leftovers"
)

// AdmissionLabels returns the labels for a cluster-scoped admission object (a webhook
// configuration, an admission policy or binding, a CRD with a conversion webhook) this process
// makes for lesson (say "12"). They mark the object as this run's, so that the next run (or make
// cluster) deletes it if this one is killed before its DeferCleanup runs (package
// workshop.local/scripts/leftovers says how).
func AdmissionLabels(lesson string) map[string]string {
	GinkgoHelper()
	labels, err := leftovers.Labels(lesson)
	if err != nil {
		Fail(err.Error())
	}
	return labels
}

// owner is this process's owner id, for the label that lets the next run delete what this one
// leaves if it is killed (package workshop.local/scripts/leftovers).
func owner() string {
	GinkgoHelper()
	id, err := leftovers.Owner()
	if err != nil {
		Fail(err.Error())
	}
	return id
}

// sweepAbandoned deletes the admission objects and namespaces of test processes that are gone,
// whichever lesson they checked. It is best effort: a failure is only logged.
func (c *Cluster) sweepAbandoned(ctx context.Context) {
	if err := leftovers.SweepAbandoned(ctx, c.Config, GinkgoWriter.Printf); err != nil {
		GinkgoWriter.Printf("could not sweep what killed spec runs left: %v\n", err)
	}
}
