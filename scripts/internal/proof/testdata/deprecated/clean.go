// Package deprecated is a fixture for deprecatedUses: clean.go is clean, and the test overlays
// it with dirty.go.txt, which calls a deprecated function.
package deprecated

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// Poll uses today's API.
func Poll(ctx context.Context) error {
	return wait.PollUntilContextTimeout(ctx, time.Millisecond, time.Second, true, func(context.Context) (bool, error) { return true, nil })
}
