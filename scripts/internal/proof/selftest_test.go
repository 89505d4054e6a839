package proof

import (
	"context"
	"errors"
	"testing"
)

var errNoImage = errors.New("no node image")

// A cluster that starts lets every static check run; one that cannot stops the checks not yet
// run, cancels the one running, and its error comes back.
func TestStaticWhileClusterStarts(t *testing.T) {
	started := make(chan struct{}) // the blocking check runs: the failing cluster may now fail
	blocking := check{"waits for its context", func(ctx context.Context) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	}}
	quick := check{"quick", func(context.Context) (string, error) { return "", nil }}
	for _, tc := range []struct {
		name    string
		static  []check
		cluster func(context.Context) error
		want    []string
	}{
		{"cluster up", []check{quick, quick}, func(context.Context) error { return nil }, []string{"quick", "quick"}},
		{"cluster fails", []check{blocking, quick}, func(context.Context) error { <-started; return errNoImage }, []string{"waits for its context"}},
	} {
		var ran []string
		runIn := func(ctx context.Context, c check) {
			ran = append(ran, c.name)
			_, _ = c.run(ctx)
		}
		err := staticWhileClusterStarts(t.Context(), tc.static, tc.cluster, runIn)
		if want := tc.cluster(t.Context()); !errors.Is(err, want) {
			t.Errorf("%s: got error %v, want %v", tc.name, err, want)
		}
		if len(ran) != len(tc.want) {
			t.Errorf("%s: ran %v, want %v", tc.name, ran, tc.want)
		}
	}
}
