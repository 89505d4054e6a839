package harness

import (
	"context"

	. "github.com/onsi/ginkgo/v2"

	"workshop.local/scripts/admission"
)

// AdmissionLabels returns the labels for a cluster-scoped admission object (a webhook
// configuration, an admission policy or binding, a CRD with a conversion webhook) this process
// makes for lesson (say "12"). They mark the object as this run's, so that the next run (or make
// cluster) deletes it if this one is killed before its DeferCleanup runs (package
// workshop.local/scripts/admission says how).
func AdmissionLabels(lesson string) map[string]string {
	GinkgoHelper()
	labels, err := admission.Labels(lesson)
	if err != nil {
		Fail(err.Error())
	}
	return labels
}

// sweepAbandonedAdmission deletes the admission objects of test processes that are gone. It is
// best effort: a failure is only logged.
func (c *Cluster) sweepAbandonedAdmission(ctx context.Context) {
	if err := admission.SweepAbandoned(ctx, c.Config, GinkgoWriter.Printf); err != nil {
		GinkgoWriter.Printf("could not sweep old webhook objects: %v\n", err)
	}
}
