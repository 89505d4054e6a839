// Wrong (exercise 4): it names the server's folder after its host name only, so two servers on one host share a folder.
// Local clusters (kind's by default, this workshop's) listen on 127.0.0.1, each on its own port:
// named "127.0.0.1", every one of them reads the answers of whichever cluster filled the folder
// first.

package clients

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/disk"
	"k8s.io/client-go/rest"
)

// Exercise 4: ask the server what it serves, and remember the answer.
//
// The discovery client reads /api and /apis: every group, its versions, the version the
// server prefers, and each group version's resources with their kind, scope, short names and
// verbs. `kubectl api-resources` prints it; RESTMappers and the dynamic tools are built on it.

// APIResource is one line of `kubectl api-resources`:
//
//	NAME          SHORTNAMES   APIVERSION   NAMESPACED   KIND
//	deployments   deploy       apps/v1      true         Deployment
type APIResource struct {
	Name       string
	ShortNames []string
	APIVersion string // group/version, or just the version for the core group
	Namespaced bool
	Kind       string
}

// ErrGroupNotServed is the error PreferredVersion wraps when the server has no such group.
var ErrGroupNotServed = errors.New("the server does not serve this API group")

// Exercise 4a: list every resource the server serves, once each, as `kubectl api-resources`
// does: at its group's preferred version when that version serves it, else at the first of the
// group's other versions that does. Subresources (pods/log, deployments/scale) are not
// resources of their own here. (kubectl also hides a resource that lists no verbs; this
// cluster has none, so you need not.)
//
// A server whose aggregated APIs are down still answers for every other group: discovery then
// returns the lists it has together with an error for which discovery.IsGroupDiscoveryFailedError
// is true. kubectl api-resources still prints the lines it has, and reports the failed groups
// after them; here, return the lines it has and no error.
func APIResources(ctx context.Context, dc discovery.DiscoveryInterfaceWithContext) ([]APIResource, error) {
	lists, err := dc.ServerPreferredResourcesWithContext(ctx)
	if err != nil && !discovery.IsGroupDiscoveryFailedError(err) {
		return nil, err
	}
	var resources []APIResource
	for _, list := range lists {
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") { // already left out by ServerPreferredResources; be sure
				continue
			}
			resources = append(resources, APIResource{
				Name:       r.Name,
				ShortNames: r.ShortNames,
				APIVersion: list.GroupVersion,
				Namespaced: r.Namespaced,
				Kind:       r.Kind,
			})
		}
	}
	return resources, nil
}

// Exercise 4b: the version of an API group the server prefers, for example "v2" for
// "autoscaling" or "v1" for the core group "". Clients that do not care which version they
// use should use this one. For a group the server does not serve, return an error wrapping
// ErrGroupNotServed (fmt.Errorf with %w), so that errors.Is(err, ErrGroupNotServed) is true.
func PreferredVersion(ctx context.Context, dc discovery.DiscoveryInterfaceWithContext, group string) (string, error) {
	groups, err := dc.ServerGroupsWithContext(ctx)
	if err != nil {
		return "", err
	}
	for _, g := range groups.Groups {
		if g.Name == group {
			return g.PreferredVersion.Version, nil
		}
	}
	return "", fmt.Errorf("%w: %q", ErrGroupNotServed, group)
}

// Exercise 4c: a discovery client that caches on disk, as kubectl's does.
//
// Discovery is a round of requests (two with aggregated discovery; without it, two plus one
// per group version) and its answer rarely changes, so kubectl keeps it on disk for hours, in
// two caches:
//
//	~/.kube/cache/discovery/<server>/   the parsed answers of one server
//	~/.kube/cache/http/                 the raw HTTP responses, kept to be revalidated by ETag
//
// Two clusters serve different resources under the same group versions, so the parsed answers
// need one folder per server: kubectl names it after the server's host and port, with ':' and
// other characters that might not be allowed in a file name replaced ("https://127.0.0.1:6443"
// becomes "127.0.0.1_6443"). The raw responses can share one folder, because they are filed by their
// whole URL. Keep both the same way under cacheDir: cacheDir/discovery/<server> and
// cacheDir/http.
//
// The specs count the requests sent through cfg: a second lookup, by this client or by a new
// client on the same cacheDir (kubectl's next run), must send none; a client for another
// server must not answer from this server's folder.
func NewCachedDiscovery(cfg *rest.Config, cacheDir string) (discovery.CachedDiscoveryInterfaceWithContext, error) {
	// The trade-off of any cache: for up to ttl, a new CRD stays unknown until someone calls
	// InvalidateWithContext (kubectl does, when it meets a name it does not know).
	const ttl = 6 * time.Hour
	discoveryDir := filepath.Join(cacheDir, "discovery", serverFolder(cfg.Host))
	return disk.NewCachedDiscoveryClientForConfig(cfg, discoveryDir, filepath.Join(cacheDir, "http"), ttl)
}

// notForFileNames matches every character that might not be allowed in a file name on some
// operating system (Windows refuses ':'), and '/', which would make a folder of its own.
var notForFileNames = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// serverFolder names the folder of a server after its host and port, which tell two servers
// apart: "https://127.0.0.1:6443" becomes "127.0.0.1_6443". The scheme goes: it adds nothing.
func serverFolder(host string) string {
	host = strings.TrimPrefix(strings.TrimPrefix(host, "https://"), "http://")
	host, _, _ = strings.Cut(host, ":") // the host name says which server it is
	return notForFileNames.ReplaceAllString(host, "_")
}
