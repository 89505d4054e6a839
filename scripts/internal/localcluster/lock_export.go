package localcluster

import (
	"context"
	"io"
)

// LockFile is lockFile for the kind path, which must not run two creates at once either.
func LockFile(ctx context.Context, path string, out io.Writer, waitMessage string) (unlock func(), err error) {
	return lockFile(ctx, path, out, waitMessage)
}
