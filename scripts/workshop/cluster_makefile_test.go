package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A workspace under a folder with a space in its name ("My Projects") must work: the Makefile
// and lessons/lesson.mk are copied into such a folder, with a stand-in for the workshop tool that
// prints how it was called, and GO=true so that nothing is built.
var _ = Describe("the Makefile in a folder whose path has a space", func() {
	It("quotes the workspace path, passes make's variables on, and a lesson folder names its lesson", func() {
		if _, err := exec.LookPath("make"); err != nil {
			Skip("make is not on PATH")
		}
		root := filepath.Join(GinkgoT().TempDir(), "My Projects", "workshop")
		lesson := filepath.Join(root, "lessons", "01-gvk-gvr")
		Expect(os.MkdirAll(lesson, 0o755)).To(Succeed())
		copyFile(filepath.Join(rootDir, "Makefile"), filepath.Join(root, "Makefile"))
		copyFile(filepath.Join(rootDir, "lessons", "lesson.mk"), filepath.Join(root, "lessons", "lesson.mk"))
		copyFile(filepath.Join(rootDir, "lessons", "01-gvk-gvr", "Makefile"), filepath.Join(lesson, "Makefile"))
		standIn := filepath.Join(root, ".cache", "bin", "workshop")
		Expect(os.MkdirAll(filepath.Dir(standIn), 0o755)).To(Succeed())
		Expect(os.WriteFile(standIn, []byte("#!/bin/sh\necho \"workshop $* in $PWD LESSON=$LESSON EXERCISE=$EXERCISE GOPROXY=$GOPROXY\"\nexit ${STAND_IN_EXIT:-0}\n"), 0o755)).To(Succeed())

		Expect(makeIn(root, "GO=true", "help")).To(ContainSubstring("workshop make-help in " + root))
		Expect(makeIn(root, "GO=true", "cluster-status")).To(ContainSubstring("workshop cluster status in " + root))
		Expect(makeIn(lesson, "GO=true", "check", "EXERCISE=2")).To(ContainSubstring("workshop check in " + root + " LESSON=01-gvk-gvr EXERCISE=2"))
		Expect(makeIn(lesson, "GO=true", "hint")).To(ContainSubstring("workshop hint in " + root + " LESSON=01-gvk-gvr"))
		Expect(makeIn(lesson, "GO=true")).To(ContainSubstring("workshop check in "+root), "plain make in a lesson folder checks it")

		By("after make kit-install, the kit's settings (.kit/env.mk) reach the tool from the root and from a lesson folder")
		kitProxy := "file://" + filepath.Join(root, ".kit", "modules")
		Expect(os.MkdirAll(filepath.Join(root, ".kit"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, ".kit", "env.mk"), []byte("export GOPROXY := "+kitProxy+"\n"), 0o644)).To(Succeed())
		Expect(makeIn(root, "GO=true", "cluster-status")).To(ContainSubstring("GOPROXY=" + kitProxy))
		Expect(makeIn(lesson, "GO=true", "hint")).To(ContainSubstring("GOPROXY=" + kitProxy))

		By("a failing check in a lesson folder exits non-zero with one line of make's own, not one per make level")
		cmd := commandWithin(within(time.Minute), "make", "GO=true", "check", "STAND_IN_EXIT=1")
		cmd.Dir, cmd.Env = lesson, withoutMakeVars(os.Environ())
		out, err := cmd.CombinedOutput()
		Expect(err).To(HaveOccurred(), "a failing check must fail make too:\n%s", out)
		Expect(strings.Count(string(out), "***")).To(Equal(1), "make's error lines:\n%s", out)
	})
})

func copyFile(from, to string) {
	GinkgoHelper()
	data, err := os.ReadFile(from)
	Expect(err).NotTo(HaveOccurred())
	Expect(os.WriteFile(to, data, 0o644)).To(Succeed())
}

func makeIn(dir string, args ...string) string {
	GinkgoHelper()
	cmd := commandWithin(within(time.Minute), "make", args...)
	cmd.Dir = dir
	// Not the make that runs these tests: `make test LESSON=03` passes LESSON=03 down through
	// MAKEFLAGS, and it would override what the lesson folder's Makefile sets.
	cmd.Env = withoutMakeVars(os.Environ())
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "make %v in %s:\n%s", args, dir, out)
	return string(out)
}

// withoutMakeVars drops what a parent make passes down, and the variables the Makefiles read.
func withoutMakeVars(env []string) []string {
	var kept []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "LESSON", "EXERCISE", "VERBOSE":
			continue
		}
		kept = append(kept, kv)
	}
	return kept
}
