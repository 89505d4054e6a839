# Included by every lesson's Makefile: in lessons/NN-topic/, every workspace target works for this
# lesson (make check, make hint EXERCISE=2, ...) and plain `make` checks it. The workspace's
# Makefile is included rather than called with make -C: one make runs, so a failing check ends in
# make's one "*** ... Error 1" line instead of a line per level.
# The folder's own name, taken after the last slash: notdir would split a path with spaces.
LESSON := $(lastword $(subst /, ,$(CURDIR)))
export LESSON
# The workspace root is this folder less its last two parts, written so a space in the path
# survives (abspath would split it); the workspace's Makefile runs every recipe there.
LESSON_MK_ROOT := $(CURDIR:/lessons/$(LESSON)=)
include ../../Makefile
.DEFAULT_GOAL := check
