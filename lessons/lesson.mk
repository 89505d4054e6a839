# Included by every lesson's Makefile: `make check` inside lessons/NN-topic/ checks that lesson,
# and any other target is the workspace's (see ../Makefile). Variables such as EXERCISE=2 pass through.
# The folder's own name, taken after the last slash: notdir would split a path with spaces.
LESSON := $(lastword $(subst /, ,$(CURDIR)))
MAKEFLAGS += --no-print-directory

check:
	@$(MAKE) -C ../.. check LESSON=$(LESSON)

%:
	@$(MAKE) -C ../.. $@ LESSON=$(LESSON)

.PHONY: check
