#!/usr/bin/env bash
# Compares the local cluster of another commit (A) with this workspace's (B): both are started
# alternately on scratch folders, so a busy machine slows both alike, and each run reports the
# start times and every process's memory (RSS) 20 s after start, their total, and pss: the
# memory the machine gives them, each page shared by several of them (one binary's code, mapped
# by four processes) counted once, split between them (the kernel's Pss, /proc/<pid>/smaps_rollup).
#
#   scripts/bench-cluster-ab.sh 77c1c92        # 7 pairs against commit 77c1c92
#   PAIRS=9 scripts/bench-cluster-ab.sh main~5
#
# A's programs are built into a hard-linked copy of the binary cache, so programs both sides
# share are not built twice and the learner's cache is never changed. Prints the raw runs and
# the medians; write them into docs/benchmarks.md by hand, with the load they ran under.
set -euo pipefail
cd "$(dirname "$0")/.."
REF=${1:?usage: scripts/bench-cluster-ab.sh <git ref of the cluster to compare with>}
PAIRS=${PAIRS:-7}
SCRATCH=$(mktemp -d /tmp/bench-ab.XXXXXX)
CACHE=${WORKSHOP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ctrl-workshop}
cleanup() {
  for side in a b; do
    [ -x "$SCRATCH/$side/cluster" ] && WORKSHOP_CACHE="$(cat "$SCRATCH/$side/cache" 2>/dev/null)" \
      WORKSHOP_CLUSTER_DIR="$SCRATCH/$side/dir" CLUSTER=local "$SCRATCH/$side/cluster" down >/dev/null 2>&1 || true
  done
  git worktree remove --force "$SCRATCH/src" >/dev/null 2>&1 || true
  rm -rf "$SCRATCH"
}
trap cleanup EXIT

mkdir -p "$SCRATCH/a" "$SCRATCH/b" "$SCRATCH/a-cache"
git worktree add --quiet --detach "$SCRATCH/src" "$REF"
# clusterTool SRC OUT builds SRC's cluster tool as OUT/cluster: `workshop cluster` since the one
# workshop command, ./scripts/cluster before it (so side A may be an older revision).
clusterTool() {
  if [ -d "$1/scripts/workshop" ]; then
    (cd "$1" && go build -o "$2/" ./scripts/workshop)
    printf '#!/bin/sh\nexec "%s" cluster "$@"\n' "$2/workshop" > "$2/cluster" && chmod +x "$2/cluster"
  else
    (cd "$1" && go build -o "$2/" ./scripts/cluster)
  fi
}
clusterTool "$SCRATCH/src" "$SCRATCH/a"
clusterTool "$PWD" "$SCRATCH/b"
[ -d "$CACHE" ] && cp -al "$CACHE/." "$SCRATCH/a-cache/"
echo "$SCRATCH/a-cache" > "$SCRATCH/a/cache"
echo "$CACHE" > "$SCRATCH/b/cache"
# Each side's tool runs in its own sources: it builds our own programs from the builder modules
# of the workspace it is started in.
echo "$SCRATCH/src" > "$SCRATCH/a/root"
echo "$PWD" > "$SCRATCH/b/root"

# run SIDE prints one line: the side, start times, the load, each process's RSS and their total.
run() {
  local side=$1 out line total=0 pss=0 f pid rss
  export WORKSHOP_CACHE WORKSHOP_CLUSTER_DIR=$SCRATCH/$side/dir CLUSTER=local
  WORKSHOP_CACHE=$(cat "$SCRATCH/$side/cache")
  out=$(cd "$(cat "$SCRATCH/$side/root")" && "$SCRATCH/$side/cluster" up 2>&1) || { echo "$out" >&2; return 1; }
  line="$side api=$(echo "$out" | awk '/kube-apiserver +ready after/ {sub("s","",$4); print $4}')"
  line="$line node=$(echo "$out" | awk '/hollow-node +ready after/ {sub("s","",$4); print $4}') load=$(cut -d' ' -f1 /proc/loadavg)"
  sleep 20 # let the controllers settle before reading memory (a benchmark, not a test)
  for f in "$WORKSHOP_CLUSTER_DIR"/local/run/*.pid; do
    pid=$(head -n1 "$f")
    rss=$(awk '/^VmRSS/ {printf "%d", $2/1024}' "/proc/$pid/status")
    total=$((total + rss)); line="$line $(basename "$f" .pid)=$rss"
    pss=$((pss + $(awk '/^Pss:/ {print $2}' "/proc/$pid/smaps_rollup")))
  done
  echo "$line total=$total pss=$((pss / 1024))"
  "$SCRATCH/$side/cluster" down >/dev/null
}

echo "== first start of each side (builds what is missing; not counted)"
run a >/dev/null; run b >/dev/null
echo "== $PAIRS pairs: a = $REF, b = this workspace"
for i in $(seq 1 "$PAIRS"); do run a; run b; done | tee "$SCRATCH/runs"

echo "== medians"
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
for side in a b; do
  line=$side
  for key in $(head -n1 "$SCRATCH/runs" | tr ' ' '\n' | sed -n 's/=.*//p'); do
    line="$line $key=$(awk -v s="$side" -v k="$key" '$1 == s {for (i = 2; i <= NF; i++) {split($i, kv, "="); if (kv[1] == k) print kv[2]}}' "$SCRATCH/runs" | median)"
  done
  echo "$line"
done
