package observe

import "context"

// Store is the slow dependency the controller publishes ConfigMaps to: in production a remote
// API (a configuration service, a CDN, a cloud provider's endpoint); in the specs a fake that
// the spec controls: it can be slow, hold its callers, fail, and it counts them. This file
// needs no edits.
type Store interface {
	// Put stores data under key ("namespace/name"). It may take long, and it may fail; it
	// returns early with the context's error when ctx ends.
	Put(ctx context.Context, key string, data map[string]string) error
}
