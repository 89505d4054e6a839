// Package versions reads versions.env, the one file where the workspace pins its versions.
package versions

import (
	_ "embed"
	"fmt"
	"strings"
)

//go:embed versions.env
var pinsFile string

// Pins maps a key of versions.env (a module path or an upper-case name) to its pinned value.
type Pins map[string]string

// Load parses the embedded versions.env. It panics on a malformed line because the file ships
// with the workspace: a broken pin file is a bug to fix, not an input to handle.
func Load() Pins {
	pins := Pins{}
	for n, line := range strings.Split(pinsFile, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			panic(fmt.Sprintf("versions.env line %d: want KEY=VALUE, got %q", n+1, line))
		}
		pins[key] = value
	}
	return pins
}

// Get returns the pin for key, panicking when it is missing (a programming error).
func (p Pins) Get(key string) string {
	v, ok := p[key]
	if !ok {
		panic("versions.env has no pin for " + key)
	}
	return v
}

// Kubernetes is the release the local cluster is built from, for example "v1.37.1".
func Kubernetes() string { return Load().Get("KUBERNETES_VERSION") }

// Etcd is the etcd release the local cluster is built from.
func Etcd() string { return Load().Get("ETCD_VERSION") }

// KindNodeImage is kind's node image, pinned by digest.
func KindNodeImage() string { return Load().Get("KIND_NODE_IMAGE") }
