package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A workspace under a folder with a space in its name ("My Projects") must work: the Makefile
// and lessons/lesson.mk are copied into such a folder and asked, with make -n, what they would
// run; nothing is built.
var _ = Describe("the Makefile in a folder whose path has a space", func() {
	It("quotes the workspace path, and a lesson folder still names its lesson", func() {
		if _, err := exec.LookPath("make"); err != nil {
			Skip("make is not on PATH")
		}
		root := filepath.Join(GinkgoT().TempDir(), "My Projects", "workshop")
		lesson := filepath.Join(root, "lessons", "01-gvk-gvr")
		Expect(os.MkdirAll(lesson, 0o755)).To(Succeed())
		copyFile(filepath.Join(rootDir, "Makefile"), filepath.Join(root, "Makefile"))
		copyFile(filepath.Join(rootDir, "lessons", "lesson.mk"), filepath.Join(root, "lessons", "lesson.mk"))
		copyFile(filepath.Join(rootDir, "lessons", "01-gvk-gvr", "Makefile"), filepath.Join(lesson, "Makefile"))

		Expect(makeIn(root, "help")).To(ContainSubstring("make cluster-status"))
		Expect(makeIn(root, "-n", "cluster-status")).To(ContainSubstring(`cd "` + root + `" && "` + root + `/.cache/bin"/cluster status`))
		Expect(makeIn(lesson, "-n", "check")).To(ContainSubstring(`check lesson "01-gvk-gvr"`))
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
	cmd := exec.Command("make", args...)
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
