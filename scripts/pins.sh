#!/usr/bin/env bash
# Applies scripts/versions/versions.env to every go.mod: each pinned library a module requires is
# set to its pin, and the cluster builder modules get the pinned Kubernetes and etcd releases;
# then to the few other files that name a pinned version (go:generate lines, lesson 11's Makefile,
# kind/cluster.yaml).
# `make test` checks the result (scripts/versions/versions_test.go).
set -euo pipefail
cd "$(dirname "$0")/.."
pins=$PWD/scripts/versions/versions.env
pin() { awk -F= -v k="$1" '$1 == k {print $2}' "$pins"; }

# Library pins: keys that are module paths. Then every module is tidied on its own (outside
# go.work, as `go mod tidy` always runs), which make test checks too (scripts/versions).
for mod in $(find lessons scripts -name go.mod -not -path '*/cluster/local/build/*'); do
  dir=$(dirname "$mod")
  for path in $(awk -F= '/^[a-z].*\// {print $1}' "$pins"); do
    if (cd "$dir" && go mod edit -json | grep -q "\"Path\": \"$path\""); then
      (cd "$dir" && go mod edit -require="$path@$(pin "$path")")
    fi
  done
  (cd "$dir" && GOWORK=off GOFLAGS=-mod=mod go mod tidy)
done

# Builder modules: Kubernetes, its staging modules, etcd. They are outside go.work; tidy them alone.
kube=scripts/internal/cluster/local/build/kube
(cd "$kube" && go mod edit -require="k8s.io/kubernetes@$(pin KUBERNETES_VERSION)")
for old in $(cd "$kube" && go mod edit -json | awk -F'"' '/"Old"/ {getline; print $4}'); do
  (cd "$kube" && go mod edit -replace="$old=$old@$(pin KUBERNETES_STAGING_VERSION)")
done
etcd=scripts/internal/cluster/local/build/etcd
(cd "$etcd" && go mod edit -require="go.etcd.io/etcd/server/v3@$(pin ETCD_VERSION)")
for dir in "$kube" "$etcd"; do (cd "$dir" && GOWORK=off GOFLAGS=-mod=mod go mod tidy); done

# Tools run at their pin outside a go.mod: a `//go:generate go run module/cmd@version` line (lesson
# 05's controller-gen) and lesson 11's workshop override of its scaffold's controller-gen version.
# scripts/versions/literals_test.go fails on a pinned tool's version written anywhere else.
for path in $(awk -F= '/^[a-z].*\// {print $1}' "$pins"); do
  for file in $(grep -rlE --include='*.go' "^//go:generate go run $path/\S*@" lessons solutions || true); do
    sed -i.bak -E "s#^(//go:generate go run $path/[^@ ]*@)[^ ]+#\1$(pin "$path")#" "$file" && rm -f "$file.bak"
  done
done
sed -i.bak -E "s#^(CONTROLLER_TOOLS_VERSION := ).*#\1$(pin sigs.k8s.io/controller-tools)#" \
  lessons/11-kubebuilder/Makefile && rm -f lessons/11-kubebuilder/Makefile.bak

# kind's node image.
sed -i.bak -E "s#(image: ).*#\1$(pin KIND_NODE_IMAGE)#" kind/cluster.yaml && rm -f kind/cluster.yaml.bak
echo "Pins applied. Run make test to check them."
