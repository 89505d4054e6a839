package overlaid

import (
	"context"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestOverlaid(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "overlaid")
}

var _ = It("waits in the overlaid file", func(ctx SpecContext) {
	Wait(context.Background())
	Expect(true).To(BeTrue())
}, SpecTimeout(500*time.Millisecond))
