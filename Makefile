# The single entry point of the workshop. `make help` lists the targets.
#
# Learners:    make check LESSON=01        (starts the cluster if needed, checks your lesson)
# Maintainers: make test                   (proves every solution passes and every starter fails)

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

# Run Go in the workspace root, whichever folder make was started from. The path is taken from
# CURDIR, not MAKEFILE_LIST: make splits MAKEFILE_LIST at spaces, so a workspace under a folder
# such as "My Projects" broke every target. Make runs here (lessons' Makefiles use -C ../..), and
# every recipe quotes the path.
ROOT := $(CURDIR)
GO   ?= go

# After `make kit-install`, the workspace's go commands fetch modules from the offline kit in
# .kit/ (git-ignored) instead of the network; the learner's global Go settings stay as they are.
-include $(ROOT)/.kit/env.mk

# CLUSTER=auto|kind|local picks the kind of cluster (auto: kind when a container engine answers and
# kind's node image is here or can be pulled; the local cluster otherwise; docs/cluster.md).
export CLUSTER ?= auto

.PHONY: help
help: ## List the targets.
	@echo "Workshop targets (run from the workspace root, or inside lessons/NN-topic/, which sets LESSON):"
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-16s %s\n", $$1, $$2}' "$(ROOT)/Makefile"
	@echo "Variables: CLUSTER=auto|kind|local  LESSON=NN  EXERCISE=N  WRONG=name  VERBOSE=1  FORCE=1  NO_COLOR=1"

.PHONY: go-present
go-present:
	@command -v $(GO) >/dev/null || { echo "Go is not on PATH: install Go 1.26 from go.dev/dl, then run make again." >&2; exit 1; }

# The tools are built into .cache/bin (a second or so when nothing changed) rather than run with
# `go run`, which would add its own "exit status 1" line under every clear error message.
BIN := $(ROOT)/.cache/bin
.PHONY: tools
tools: go-present
	@cd "$(ROOT)" && $(GO) build -o "$(BIN)"/ ./scripts/cluster ./scripts/check ./scripts/classroom

# Classroom readiness (issue 13). doctor only reads; prepare is the one step that needs the network.
.PHONY: doctor
doctor: tools ## Check this laptop for the workshop: one line per check, a fix per failure; exit status 0 when ready (ARGS=--json).
	@cd "$(ROOT)" && "$(BIN)"/classroom doctor $(ARGS)

.PHONY: prepare
prepare: tools ## Do once, with the network, all that make check needs (modules, cluster binaries, lesson builds, kind image); ends with make doctor's verdict.
	@cd "$(ROOT)" && "$(BIN)"/classroom prepare

.PHONY: kit
kit: tools ## Instructor: write the offline kit (modules as a Go proxy, cluster binaries, checksums) to KIT=path (default .cache/kit/).
	@cd "$(ROOT)" && "$(BIN)"/classroom kit "$(if $(KIT),$(abspath $(KIT)))"

.PHONY: kit-install
kit-install: go-present ## Learner: install an offline kit (KIT=path/to/kit.tar.gz); this workspace then needs no network.
	@test -n "$(KIT)" || { echo "Which kit? make kit-install KIT=path/to/workshop-kit.tar.gz" >&2; exit 2; }
	@test -f "$(abspath $(KIT))" || { echo "No kit at $(abspath $(KIT)): KIT=path to the .tar.gz the instructor handed out" >&2; exit 2; }
	@$(MAKE) kit-bootstrap KIT="$(abspath $(KIT))"
	@cd "$(ROOT)" && "$(BIN)"/classroom kit-install "$(abspath $(KIT))"

# A laptop without the network cannot build the tools that install the kit: their modules are in
# the kit. So the kit's modules are first unpacked as they are (tar) into a scratch proxy, the tools
# built from it, and then kit-install unpacks the whole kit again, checking every file's checksum.
.PHONY: kit-bootstrap
kit-bootstrap: go-present
	@cd "$(ROOT)" && { chmod -R u+w .kit.bootstrap 2>/dev/null || true; } && rm -rf .kit.bootstrap && mkdir -p .kit.bootstrap && \
	  tar -xzf "$(KIT)" -C .kit.bootstrap modules && \
	  GOPROXY="file://$(ROOT)/.kit.bootstrap/modules" GOSUMDB=off $(GO) build -o "$(BIN)"/ ./scripts/cluster ./scripts/check ./scripts/classroom && \
	  rm -rf .kit.bootstrap

# The instructor's board: learners' per-exercise results (never code), who looks stuck, and the
# most common failures. State in .classroom/board.db (git-ignored), kept across restarts.
.PHONY: classroom
classroom: tools ## Instructor: serve the live board (ADDR=0.0.0.0:8765 for the room; default 127.0.0.1:8765); prints the join code.
	@cd "$(ROOT)" && "$(BIN)"/classroom board "$(or $(ADDR),127.0.0.1:8765)" "$(STATE)"

.PHONY: join
join: tools ## Learner: report every make check / make watch to the board (BOARD=http://host:port CODE=... NAME=you).
	@test -n "$(BOARD)" -a -n "$(CODE)" || { echo "make join BOARD=http://host:port CODE=<the code the board shows> [NAME=your name]" >&2; exit 2; }
	@cd "$(ROOT)" && "$(BIN)"/classroom join "$(BOARD)" "$(CODE)" "$(NAME)"

.PHONY: cluster
cluster: tools ## Start (or reuse) the workshop cluster; writes .cluster/kubeconfig.
	@cd "$(ROOT)" && "$(BIN)"/cluster up

.PHONY: cluster-down
cluster-down: tools ## Stop the workshop cluster and free its ports (local: data kept; kind: deleted).
	@cd "$(ROOT)" && "$(BIN)"/cluster down

.PHONY: kind-pull
kind-pull: tools ## Pull kind's node image now (about 400 MB), so that make cluster later needs no network.
	@cd "$(ROOT)" && "$(BIN)"/cluster pull

.PHONY: envtest-assets
envtest-assets: tools ## Print a folder for KUBEBUILDER_ASSETS: etcd, kube-apiserver, kubectl from the local cluster's build (built if needed; starts nothing).
	@cd "$(ROOT)" && "$(BIN)"/cluster envtest-assets

.PHONY: cluster-status
cluster-status: tools ## Say what is running and whether the API answers.
	@cd "$(ROOT)" && "$(BIN)"/cluster status

# LESSON=01 (or 1, or the folder name) and EXERCISE=N pick what to check.
.PHONY: check
check: tools ## Check a lesson against the cluster (LESSON=NN, EXERCISE=N, VERBOSE=1 for Ginkgo's whole output); starts the cluster if needed.
	@test -n "$(LESSON)" || { echo "Which lesson? make check LESSON=01 (or run make check inside lessons/NN-topic/)" >&2; exit 2; }
	@cd "$(ROOT)" && "$(BIN)"/cluster ensure && echo && VERBOSE="$(VERBOSE)" "$(BIN)"/check lesson "$(LESSON)" "$(EXERCISE)"

# The learner's loop. State (exercises passed, hints shown, solutions revealed, reset backups)
# lives in .progress/, which git ignores and make cluster-down leaves alone.
.PHONY: watch
watch: tools ## Re-check the current exercise on every save (LESSON=NN); keys: h hint, l list, a all, r reset, n next, q quit.
	@test -n "$(LESSON)" || { echo "Which lesson? make watch LESSON=01 (or run make watch inside lessons/NN-topic/)" >&2; exit 2; }
	@cd "$(ROOT)" && "$(BIN)"/cluster ensure && echo && "$(BIN)"/check watch "$(LESSON)" "$(EXERCISE)"

.PHONY: hint
hint: tools ## Show the next hint level of an exercise from its lesson's hints.md (LESSON=NN EXERCISE=N).
	@test -n "$(LESSON)" || { echo "Which lesson? make hint LESSON=01 EXERCISE=1" >&2; exit 2; }
	@cd "$(ROOT)" && "$(BIN)"/check hint "$(LESSON)" "$(EXERCISE)"

.PHONY: progress
progress: tools ## Every lesson and exercise with its state from your last checks, hints used, the next step (ARGS=--json).
	@cd "$(ROOT)" && "$(BIN)"/check progress $(ARGS)

.PHONY: reset
reset: tools ## Put an exercise's starter back from git, after backing up your version (LESSON=NN EXERCISE=N; no EXERCISE: the lesson, asks first).
	@test -n "$(LESSON)" || { echo "Which lesson? make reset LESSON=01 EXERCISE=1" >&2; exit 2; }
	@cd "$(ROOT)" && "$(BIN)"/check reset "$(LESSON)" "$(EXERCISE)"

.PHONY: solution
solution: tools ## Show the reference solution as a diff against your code, once the exercise passes (LESSON=NN EXERCISE=N, FORCE=1 to see it before).
	@test -n "$(LESSON)" || { echo "Which lesson? make solution LESSON=01 EXERCISE=1" >&2; exit 2; }
	@cd "$(ROOT)" && FORCE="$(FORCE)" "$(BIN)"/check solution "$(LESSON)" "$(EXERCISE)"

# Ginkgo's CLI at the workspace's pinned version (go run: nothing to install), in a lesson's folder.
# SOLUTION=1 overlays the reference solution on the learner's files, without touching them.
.PHONY: ginkgo
ginkgo: tools ## Run Ginkgo's CLI on a lesson (LESSON=NN ARGS="-p --randomize-all", SOLUTION=1 for the reference).
	@test -n "$(LESSON)" || { echo "Which lesson? make ginkgo LESSON=01 ARGS=-p" >&2; exit 2; }
	@cd "$(ROOT)" && dir=$$("$(BIN)"/check dir "$(LESSON)") && overlay= && \
	  if [ -n "$(SOLUTION)" ]; then overlay="-overlay=$$("$(BIN)"/check overlay "$(LESSON)")"; fi && \
	  cd "$$dir" && GOFLAGS="$$overlay" $(GO) run github.com/onsi/ginkgo/v2/ginkgo $(ARGS) .

.PHONY: test
test: tools ## The project's tests: tooling; every solution passes, every starter fails, every wrong solution is caught. Ends with "N passed, N failed".
	@cd "$(ROOT)" && "$(BIN)"/cluster ensure && echo && "$(BIN)"/check test "$(LESSON)"

# The authors' loop for wrong solutions (solutions/NN-topic/wrong/<name>/<file>.go): each replaces
# one file of the reference solution, only its exercise's specs run, and a spec must fail.
.PHONY: test-wrong
test-wrong: tools ## Prove a lesson's wrong solutions are caught (LESSON=NN, WRONG=name for one); says which spec caught each.
	@test -n "$(LESSON)" || { echo "Which lesson? make test-wrong LESSON=01 (WRONG=<folder name> for one)" >&2; exit 2; }
	@cd "$(ROOT)" && "$(BIN)"/cluster ensure && echo && "$(BIN)"/check wrong "$(LESSON)" "$(WRONG)"

# Lesson 10's "write your own specs": your spec file against the reference operator (every spec
# must pass) and against broken operators (each must fail one of your specs).
.PHONY: specs
specs: tools ## Prove your own specs (LESSON=10, FILE=path, default lessons/10-operator/my_specs_test.go): which broken operators they catch.
	@test -n "$(LESSON)" || { echo "Which lesson? make specs LESSON=10" >&2; exit 2; }
	@cd $(ROOT) && $(BIN)/cluster ensure && echo && $(BIN)/check specs "$(LESSON)" "$(FILE)"

.PHONY: mistakes
mistakes: tools ## Write docs/mistakes.md, the instructors' list of common mistakes, from the wrong solutions.
	@cd "$(ROOT)" && "$(BIN)"/check mistakes

.PHONY: pins
pins: go-present ## Apply scripts/versions/versions.env (the one place versions are pinned) to every go.mod.
	@cd "$(ROOT)" && scripts/pins.sh

.PHONY: bench-cluster
bench-cluster: go-present ## Measure build, start, stop and memory of the local cluster (writes docs/benchmarks.md).
	@cd "$(ROOT)" && scripts/bench-cluster.sh
