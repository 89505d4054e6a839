# The single entry point of the workshop. `make help` lists the targets.
#
# Learners:    make check LESSON=01        (starts the cluster if needed, checks your lesson)
# Maintainers: make test                   (proves every solution passes and every starter fails)
#
# Every target is a command of one tool, scripts/workshop (built into .cache/bin/workshop): make
# check is `workshop check`. Variables given to make (LESSON=01 EXERCISE=2) reach the tool in its
# environment, where its flags fall back to them; the tool validates them, once, for every target.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

# Run Go in the workspace root, whichever folder make was started from. The path is taken from
# CURDIR, not MAKEFILE_LIST: make splits MAKEFILE_LIST at spaces, so a workspace under a folder
# such as "My Projects" broke every target. Every recipe runs Go here and quotes the path. A
# lesson's Makefile includes this one (lessons/lesson.mk) and says where the root is.
ROOT := $(or $(LESSON_MK_ROOT),$(CURDIR))
GO   ?= go

# After `make kit-install`, the workspace's go commands fetch modules from the offline kit in
# .kit/ (git-ignored) instead of the network; the learner's global Go settings stay as they are.
# The path is relative to the folder make runs in (the root, or a lesson folder two below it):
# make splits an include's path at spaces, so $(ROOT)/.kit/env.mk was silently skipped under "My Projects".
-include $(if $(LESSON_MK_ROOT),../../).kit/env.mk

# CLUSTER=auto|kind|local picks the cluster's runtime (auto: kind when a container engine answers
# and kind's node image is here or can be pulled; the local cluster otherwise; docs/cluster.md).
export CLUSTER ?= auto

.PHONY: go-present
go-present:
	@command -v $(GO) >/dev/null || { echo "Go is not on PATH: install Go 1.26 from go.dev/dl, then run make again." >&2; exit 1; }

# The tool is built into .cache/bin (a second or so when nothing changed) rather than run with
# `go run`, which would add its own "exit status 1" line under every clear error message.
BIN := $(ROOT)/.cache/bin
WS  := cd "$(ROOT)" && "$(BIN)"/workshop
.PHONY: tools
tools: go-present
	@cd "$(ROOT)" && $(GO) build -o "$(BIN)"/ ./scripts/workshop

# help is the tool's own listing of this file's targets, grouped, with every variable. Before the
# tool can be built (no network yet, no kit), it says how to get there.
.PHONY: help
help:
	@if $(MAKE) -s tools 2>/dev/null; then $(WS) make-help; else \
	  echo "The workshop tool does not build yet (no network, or no Go modules): run make doctor, then make prepare"; \
	  echo "with the network, or make kit-install KIT=path/to/workshop-kit.tar.gz without it."; fi

# The learner's loop. State (exercises passed, hints shown, solutions revealed, reset backups)
# lives in .progress/, which git ignores and make cluster-down leaves alone.
.PHONY: check watch hint progress reset solution specs scaffold
check watch hint reset solution specs scaffold: tools
	@$(WS) $@
progress: tools
	@$(WS) progress $(ARGS)

# The workshop cluster: workshop cluster up|down|status|why|prune|pull|envtest-assets.
.PHONY: cluster cluster-down cluster-status cluster-why cluster-prune kind-pull envtest-assets
cluster: tools
	@$(WS) cluster up
cluster-down cluster-status cluster-why cluster-prune: tools
	@$(WS) cluster $(patsubst cluster-%,%,$@)
kind-pull: tools
	@$(WS) cluster pull
envtest-assets: tools
	@$(WS) cluster envtest-assets

# Classroom readiness and the instructor's board. doctor only reads; prepare is the one step that
# needs the network; the board keeps its state in .classroom/board.db (git-ignored).
# board-remove and board-clear act on the board make classroom runs, from the same laptop.
.PHONY: doctor prepare kit classroom join board-remove board-clear
doctor: tools
	@$(WS) doctor $(ARGS)
prepare kit join: tools
	@$(WS) $@
classroom: tools
	@$(WS) board
board-remove board-clear: tools
	@$(WS) board $(patsubst board-%,%,$@)

# A laptop without the network cannot build the tool that installs the kit: its modules are in
# the kit. So the kit's modules are first unpacked as they are (tar) into a scratch proxy, the tool
# built from it, and then kit-install unpacks the whole kit again, checking every file's checksum.
.PHONY: kit-install
kit-install: go-present
	@test -n "$(KIT)" || { echo "Which kit? make kit-install KIT=path/to/workshop-kit.tar.gz" >&2; exit 2; }
	@test -f "$(abspath $(KIT))" || { echo "No kit at $(abspath $(KIT)): KIT=path to the .tar.gz the instructor handed out" >&2; exit 2; }
	@cd "$(ROOT)" && { chmod -R u+w .kit.bootstrap 2>/dev/null || true; } && rm -rf .kit.bootstrap && mkdir -p .kit.bootstrap && \
	  tar -xzf "$(abspath $(KIT))" -C .kit.bootstrap modules && \
	  GOPROXY="file://$(ROOT)/.kit.bootstrap/modules" GOSUMDB=off $(GO) build -o "$(BIN)"/ ./scripts/workshop && \
	  rm -rf .kit.bootstrap
	@$(WS) kit-install --kit "$(abspath $(KIT))"

# The maintainers' proofs and chores.
.PHONY: test test-wrong signatures wrong-edit wrong-save mistakes sums generate l10n-diff ginkgo
test test-wrong signatures wrong-edit wrong-save mistakes sums generate l10n-diff: tools
	@$(WS) $@
ginkgo: tools
	@$(WS) ginkgo -- $(ARGS)

# These two run scripts that must work even when the tool cannot build (a go.mod being re-pinned).
.PHONY: pins bench-cluster
pins: go-present
	@cd "$(ROOT)" && scripts/pins.sh
bench-cluster: go-present
	@cd "$(ROOT)" && scripts/bench-cluster.sh
