// Package overlaid is the starter of a one-file lesson whose replacement (wait.go.txt, longer)
// blocks past its spec's timeout: overlay_test.go proves such a spec fails by name.
package overlaid

import "context"

// Wait is the starter: it returns at once.
func Wait(ctx context.Context) {}
