// Package binaries is the build-from-source cache of the local cluster's programs (etcd,
// workshop-kube, kubectl) and of envtest's assets, shared by every clone on the machine. Its API
// is small: Default(root) finds the cache folder; Ensure builds what is missing; Path, Missing,
// Stale and EnsureEnvtest answer the rest. The local runtime runs these programs; make prepare,
// make kit, the doctor, ownspecs and scripts/project only need the cache, so they import this
// package and never the runtime (cluster/local). The builder modules themselves (the Go
// modules that build etcd and workshop-kube) still live in cluster/local/build, which
// BuilderDir names.
package binaries
