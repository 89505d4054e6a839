package webhooks_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"

	"workshop.local/lessons/internal/harness"
)

// cluster is the workshop cluster whose API server calls your webhooks.
var cluster *harness.Cluster

func TestLesson12(t *testing.T) {
	harness.RunSuite(t, "Lesson 12: admission and conversion webhooks")
}

// Each test process gets its own API group, CRD and webhook server (setup_test.go): the CRD's
// conversion webhook is one URL per CRD, and parallel processes each serve their own.
var _ = BeforeSuite(func(ctx SpecContext) {
	cluster = harness.Connect(ctx)
	setUpProcess(ctx)
})
