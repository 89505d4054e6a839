package specrun

import (
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// A stack as Ginkgo records it for a panic: the runtime's frames first, then where it happened.
const specPanicStack = `panic({0x1a2b3c0?, 0xc000123456?})
	/usr/local/go/src/runtime/panic.go:787 +0x132
runtime.goPanicSliceB(...)
	/usr/local/go/src/runtime/panic.go:153 +0x8d
workshop.local/lessons/14-code-generator.fieldsOwnedBy({0xc0001, 0x2, 0x2}, {0x1c, 0x9})
	/work/main/lessons/14-code-generator/apply_test.go:212 +0x2f1
workshop.local/lessons/14-code-generator.init.func4.3({0x1f00, 0xc000})
	/work/main/lessons/14-code-generator/apply_test.go:96 +0x1a4`

const learnerPanicStack = `panic({0x1a2b3c0?, 0xc000123456?})
	/usr/local/go/src/runtime/panic.go:787 +0x132
workshop.local/lessons/04-workqueue.ProcessNextItem(...)
	/work/main/lessons/04-workqueue/worker.go:41 +0x55
workshop.local/lessons/04-workqueue.init.func2.1({0x1f00, 0xc000})
	/work/main/lessons/04-workqueue/worker_test.go:60 +0x1a4`

func TestAPanicInTheSpecsIsToldFromOneInTheLearnersCode(t *testing.T) {
	spec := func(stack string) Spec {
		var sr types.SpecReport
		sr.State = types.SpecStatePanicked
		sr.Failure.Location.FullStackTrace = stack
		return Spec{Report: sr}
	}
	if where := spec(specPanicStack).PanickedInSpecs(); where != "/work/main/lessons/14-code-generator/apply_test.go:212" {
		t.Errorf("a panic in apply_test.go: got %q", where)
	}
	if where := spec(learnerPanicStack).PanickedInSpecs(); where != "" {
		t.Errorf("a panic in the learner's worker.go is the learner's: got %q", where)
	}
	failed := Spec{}
	failed.Report.State = types.SpecStateFailed
	if where := failed.PanickedInSpecs(); where != "" {
		t.Errorf("a spec that failed without a panic: got %q", where)
	}
}
