#!/usr/bin/env bash
# Measures the local cluster and the learner's loop, and writes the figures to docs/benchmarks.md.
#
#   scripts/bench-cluster.sh              # warm figures (5 runs each) + one cold build
#   WARM_RUNS=9 COLD_RUNS=3 scripts/bench-cluster.sh
#   COLD_RUNS=0 scripts/bench-cluster.sh  # skip the cold build (it takes about ten minutes)
#
# Everything runs on a scratch cluster folder, never the learner's .cluster. A cold build uses an
# empty binary cache and an empty Go build cache; the Go module cache stays warm, because what a
# download costs depends on the network, not on this workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WARM_RUNS=${WARM_RUNS:-5}
COLD_RUNS=${COLD_RUNS:-1}
OUT=${OUT:-docs/benchmarks.md}
SCRATCH=$(mktemp -d /tmp/bench-cluster.XXXXXX)
trap 'WORKSHOP_CLUSTER_DIR=$SCRATCH/cluster CLUSTER=local "$TOOL" down >/dev/null 2>&1 || true; rm -rf "$SCRATCH"' EXIT

go build -o "$SCRATCH/bin/" ./scripts/workshop
TOOL=$SCRATCH/bin/cluster # `workshop cluster`, as one program for the lines below
printf '#!/bin/sh\nexec "%s" cluster "$@"\n' "$SCRATCH/bin/workshop" > "$TOOL" && chmod +x "$TOOL"
export CLUSTER=local

now() { date +%s.%N; }
elapsed() { awk -v a="$(now)" -v b="$1" 'BEGIN {print a - b}'; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
fmt() { awk -v v="$1" 'BEGIN {if (v=="n/a") print v; else printf "%.1f", v}'; }

# sum_mb DIR FILE FIELD sums a kB field of /proc/<pid>/FILE over the cluster's five processes
# (from the pid files under DIR), in MB.
sum_mb() {
  local total=0 pid
  for f in "$1"/local/run/*.pid; do
    pid=$(head -n1 "$f")
    total=$((total + $(awk -v field="$3:" '$1 == field {print $2}' "/proc/$pid/$2")))
  done
  echo $((total / 1024))
}

# rss_mb sums their resident memory.
rss_mb() { sum_mb "$1" status VmRSS; }

# pss_mb sums their proportional memory (the kernel's Pss): a page several of them share (the
# code of workshop-kube, one binary that four of them run) counts once, split between them. This
# is what the machine gives the cluster; the sum of RSS counts a shared page once per process.
pss_mb() { sum_mb "$1" smaps_rollup Pss; }

# rss_each_mb prints "name MB" for each of the cluster's processes, so a change in the total can
# be traced to the program that grew.
rss_each_mb() {
  local f pid
  for f in "$1"/local/run/*.pid; do
    pid=$(head -n1 "$f")
    echo "$(basename "$f" .pid) $(awk '/^VmRSS/ {printf "%d", $2/1024}' "/proc/$pid/status")"
  done
}

# medians_by_name reads "name value" lines and prints "name median" per name.
medians_by_name() {
  local name
  for name in $(awk '{print $1}' "$1" | sort -u); do
    echo "$name $(awk -v n="$name" '$1 == n {print $2}' "$1" | median)"
  done
}

echo "== cold build ($COLD_RUNS run(s)): empty binary cache and Go build cache"
: > "$SCRATCH/cold"
for i in $(seq 1 "$COLD_RUNS"); do
  rm -rf "$SCRATCH/cache" "$SCRATCH/gocache" "$SCRATCH/cluster"
  start=$(now)
  WORKSHOP_CACHE=$SCRATCH/cache GOCACHE=$SCRATCH/gocache WORKSHOP_CLUSTER_DIR=$SCRATCH/cluster "$TOOL" up | grep -E "built|ready after"
  elapsed "$start" >> "$SCRATCH/cold"
  WORKSHOP_CLUSTER_DIR=$SCRATCH/cluster "$TOOL" down >/dev/null
done
rm -rf "$SCRATCH/gocache"

echo "== warm start and stop ($WARM_RUNS runs): binaries cached, data kept between runs"
: > "$SCRATCH/api"; : > "$SCRATCH/node"; : > "$SCRATCH/stop"; : > "$SCRATCH/rss"; : > "$SCRATCH/rss-each"
: > "$SCRATCH/pss"; : > "$SCRATCH/rss03"; : > "$SCRATCH/pss03"
# Lesson 03's specs on its solution (informers: lists, watches, relists) load the cluster the way
# a learner's first lessons do; memory is read again after them.
(cd lessons/03-informers && go test -c -o "$SCRATCH/03.test" -overlay "$(cd "$ROOT" && go run ./scripts/workshop overlay 03)" .)
export WORKSHOP_CLUSTER_DIR=$SCRATCH/cluster
for i in $(seq 1 "$WARM_RUNS"); do
  out=$("$TOOL" up)
  echo "$out" | awk '/kube-apiserver +ready after/ {sub("s","",$4); print $4}' >> "$SCRATCH/api"
  echo "$out" | awk '/hollow-node +ready after/ {sub("s","",$4); print $4}' >> "$SCRATCH/node"
  sleep 20 # let the controllers settle before reading memory (a benchmark, not a test)
  rss_mb "$SCRATCH/cluster" >> "$SCRATCH/rss"
  pss_mb "$SCRATCH/cluster" >> "$SCRATCH/pss"
  rss_each_mb "$SCRATCH/cluster" >> "$SCRATCH/rss-each"
  (cd lessons/03-informers && LESSONS_KUBECONFIG=$SCRATCH/cluster/kubeconfig "$SCRATCH/03.test" >/dev/null 2>&1) || echo "lesson 03's specs failed on run $i" >&2
  rss_mb "$SCRATCH/cluster" >> "$SCRATCH/rss03"
  pss_mb "$SCRATCH/cluster" >> "$SCRATCH/pss03"
  start=$(now); "$TOOL" down >/dev/null; elapsed "$start" >> "$SCRATCH/stop"
done
unset WORKSHOP_CLUSTER_DIR

echo "== warm make check LESSON=01 ($WARM_RUNS runs, on the learner's cluster)"
make cluster >/dev/null
make check LESSON=01 >/dev/null 2>&1 || true # once to warm the build cache
: > "$SCRATCH/check"
for i in $(seq 1 "$WARM_RUNS"); do
  start=$(now); make check LESSON=01 >/dev/null 2>&1 || true; elapsed "$start" >> "$SCRATCH/check"
done

cold=$(median < "$SCRATCH/cold"); api=$(median < "$SCRATCH/api"); node=$(median < "$SCRATCH/node")
stop=$(median < "$SCRATCH/stop"); rss=$(median < "$SCRATCH/rss"); check=$(median < "$SCRATCH/check")
pss=$(median < "$SCRATCH/pss"); rss03=$(median < "$SCRATCH/rss03"); pss03=$(median < "$SCRATCH/pss03")
cpu=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)
mem=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)

# The sections below the generated table ("## ..." headings: per-program build times, the
# wrong-solution proofs, ...) are written by hand or by other measurements: keep them.
kept=$(awk '/^## /{keep=1} keep' "$OUT" 2>/dev/null || true)

cat > "$OUT" <<MD
# Measured figures

Written by \`scripts/bench-cluster.sh\` (\`make bench-cluster\`) on $(date -u +%F), on a machine with
$(nproc) cores ($cpu), $mem, Go $(go version | cut -d' ' -f3 | sed 's/go//'). Medians; the machines are
shared and noisy, so read them as a range, not a promise. Raw runs are listed below the table.

| what | median | target | runs |
|---|---|---|---|
| cold \`make cluster\`: build etcd, workshop-kube (kube-apiserver, kube-controller-manager, kube-scheduler, hollow node), kubectl (warm module cache) and start | $(fmt "$cold") s | (once per machine) | $COLD_RUNS |
| warm start until the API server answers /readyz | $(fmt "$api") s | ≤ 5 s | $WARM_RUNS |
| warm start until the hollow node is Ready | $(fmt "$node") s | ≤ 10 s | $WARM_RUNS |
| stop (all five processes gone, ports free) | $(fmt "$stop") s | | $WARM_RUNS |
| memory the machine gives the five cluster processes (sum of Pss), 20 s after start | $pss MB | ≤ 400 MB | $WARM_RUNS |
| the same after lesson 03's specs (solution) | $pss03 MB | ≤ 400 MB | $WARM_RUNS |
| sum of the five processes' RSS, 20 s after start / after lesson 03's specs | $rss / $rss03 MB | (counts workshop-kube's shared code four times) | $WARM_RUNS |
| warm \`make check LESSON=01\` (cluster running, starter files) | $(fmt "$check") s | ≤ 10 s | $WARM_RUNS |

Raw runs (seconds, MB):

- cold build: $(tr '\n' ' ' < "$SCRATCH/cold")
- API answering: $(tr '\n' ' ' < "$SCRATCH/api")
- node Ready: $(tr '\n' ' ' < "$SCRATCH/node")
- stop: $(tr '\n' ' ' < "$SCRATCH/stop")
- Pss: $(tr '\n' ' ' < "$SCRATCH/pss")
- Pss after lesson 03: $(tr '\n' ' ' < "$SCRATCH/pss03")
- RSS: $(tr '\n' ' ' < "$SCRATCH/rss")
- RSS after lesson 03: $(tr '\n' ' ' < "$SCRATCH/rss03")
- RSS per process (median, MB): $(medians_by_name "$SCRATCH/rss-each" | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}')
- make check LESSON=01: $(tr '\n' ' ' < "$SCRATCH/check")
MD
[ -z "$kept" ] || printf '\n%s\n' "$kept" >> "$OUT"
echo "== wrote $OUT"
cat "$OUT"
