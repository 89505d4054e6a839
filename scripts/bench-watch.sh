#!/usr/bin/env bash
# Measures make watch's save-to-result time for lesson 01, exercise 1: the time from a save of
# parse.go to the verdict on screen, as watch itself reports it ("checked in N s after the save",
# counted from the first file event of the save). Each save changes code (a new var line), so
# every check is a real rebuild (compile the lesson package, relink the test binary) plus the
# exercise's specs against the running workshop cluster.
#
# It works on a scratch copy of lesson 01 (your files are never touched) and needs the cluster:
# run `make cluster` first. Usage: scripts/bench-watch.sh [SAVES]   (default 15)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
saves=${1:-15}
export LESSONS_KUBECONFIG=${LESSONS_KUBECONFIG:-$root/.cluster/kubeconfig}
[ -f "$LESSONS_KUBECONFIG" ] || { echo "no workshop cluster ($LESSONS_KUBECONFIG): make cluster first" >&2; exit 1; }

scratch=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$scratch"' EXIT
mkdir -p "$scratch/lessons" "$scratch/.cache/bin"
cp -r lessons/01-gvk-gvr "$scratch/lessons/"
mkdir -p "$scratch/solutions" && cp -r solutions/01-gvk-gvr "$scratch/solutions/" # the tools read which files are the learner's
cp go.work.sum "$scratch/"
grep " lessons/01-gvk-gvr/" lessons/specs.sha256 > "$scratch/lessons/specs.sha256" # lesson 01's specs as shipped
# The same modules as the workspace (so the build cache serves every dependency), lesson 01 copied.
sed -E "s#^(\s+)\./(.*)#\1$root/\2#; s#$root/lessons/01-gvk-gvr#./lessons/01-gvk-gvr#" go.work > "$scratch/go.work"
# Lesson 01's go.mod replaces the harness and the scripts module with folders beside it, which the
# copy lacks: point them at the real ones, as every other module of go.work does.
(cd "$scratch/lessons/01-gvk-gvr" && go mod edit -replace=workshop.local/lessons/internal="$root/lessons/internal" \
  -replace=workshop.local/scripts="$root/scripts")
go build -o "$scratch/.cache/bin/" ./scripts/workshop

cd "$scratch"
log=$scratch/watch.log
NO_COLOR=1 WORKSHOP_CLUSTER_DIR="$root/.cluster" WORKSHOP_RUNNING_CLUSTER=1 .cache/bin/workshop watch 01 1 </dev/null >"$log" 2>&1 &
pid=$!
wait_for() { # wait_for N: until the log holds N verdict lines
  for _ in $(seq 1 1800); do
    [ "$(grep -c 'exercise 1: ' "$log")" -ge "$1" ] && return 0
    sleep 0.1
  done
  echo "no verdict after 3 minutes; the log:" >&2; cat "$log" >&2; exit 1
}
wait_for 1 # the first build and check

file=lessons/01-gvk-gvr/parse.go
cp "$file" "$scratch/starter.go"
for i in $(seq 1 "$saves"); do
  { cat "$scratch/starter.go"; echo "var benchSave$i = $i"; } > "$file"
  wait_for $((i + 1))
  sleep 1 # a learner reads the result before saving again
done

figures=$(grep -o "checked in [0-9.]* s" "$log" | awk "{print \$3}" | sort -n)
builds=$(grep -o "rebuild [0-9.]* s" "$log" | awk "{print \$2}" | sort -n)
n=$(echo "$figures" | wc -l)
median=$(echo "$figures" | awk -v n="$n" 'NR == int((n + 1) / 2) {print}')
echo "save-to-result, lesson 01 exercise 1, $n saves: median ${median} s, min $(echo "$figures" | head -1) s, max $(echo "$figures" | tail -1) s"
echo "of which the rebuild (go test -c: compile the lesson, relink): median $(echo "$builds" | awk -v n="$n" "NR == int((n + 1) / 2) {print}") s"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3)"
