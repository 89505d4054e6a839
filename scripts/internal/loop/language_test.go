package loop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/specrun"
)

// languageChild, set, makes this test binary the child of TestTheLoopSpeaksTheLearnersLanguage:
// the learner's language is read once per process, so each language needs a process of its own.
const languageChild = "WORKSHOP_TEST_LANGUAGE_CHILD"

// make hint, make progress and make check's summary speak Chinese when WORKSHOP_LANG or the
// locale asks for it, reading the lesson's README.zh-CN.md and hints.zh-CN.md; with neither,
// English exactly as before.
func TestTheLoopSpeaksTheLearnersLanguage(t *testing.T) {
	if root := os.Getenv(languageChild); root != "" {
		speakToTheLearner(t, root)
		return
	}
	for _, c := range []struct {
		name, env string
		want      []string
		not       []string
	}{
		{"neither", "", []string{
			"Lesson 01, exercise 1: `Parse` (parse.go)\nHint 1 of 2: the idea\n\nRead the docs.",
			"Again for the next level: make hint LESSON=01 EXERCISE=1",
			"1. `Parse` (parse.go)  hints 1/2",
			"Next: lesson 01 exercise 1 (`Parse` (parse.go)): make watch LESSON=01",
			"\nLesson 01: 0 of 1 exercises pass.\n",
		}, []string{"练习", "提示"}},
		{"WORKSHOP_LANG", "WORKSHOP_LANG=zh-CN", []string{
			"第 01 课，练习 1：`Parse`（parse.go）\n提示 1/2：思路\n\n读文档。",
			"再运行一次可看下一级：make hint LESSON=01 EXERCISE=1",
			"1. `Parse`（parse.go）  提示 1/2",
			"下一步：第 01 课练习 1（`Parse`（parse.go））：make watch LESSON=01",
			"\n第 01 课：0/1 个练习通过。\n",
		}, []string{"Hint", "Next:"}},
		{"LANG", "LANG=zh_CN.UTF-8", []string{"提示 1/2：思路", "第 01 课：0/1 个练习通过。"}, []string{"Hint", "Next:"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := demoLessonWithTranslation(t)
			cmd := exec.Command(os.Args[0], "-test.run=^TestTheLoopSpeaksTheLearnersLanguage$")
			cmd.Env = append(withoutLanguage(os.Environ()), languageChild+"="+root)
			if c.env != "" {
				cmd.Env = append(cmd.Env, c.env)
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			for _, want := range c.want {
				if !strings.Contains(string(out), want) {
					t.Errorf("want %q in:\n%s", want, out)
				}
			}
			for _, not := range c.not {
				if strings.Contains(string(out), not) {
					t.Errorf("%q should not be in:\n%s", not, out)
				}
			}
		})
	}
}

// speakToTheLearner, in the child, shows a hint, the progress and a check's summary.
func speakToTheLearner(t *testing.T, root string) {
	all, err := lessons.Discover(root)
	if err != nil || len(all) != 1 {
		t.Fatalf("discover: %v %v", all, err)
	}
	if _, err := Hint(os.Stdout, root, all[0], 1); err != nil {
		t.Fatal(err)
	}
	if _, err := Progress(os.Stdout, root, false); err != nil {
		t.Fatal(err)
	}
	summarize(root, all[0], specrun.Result{Specs: []specrun.Spec{{Text: "Exercise 1: Parse parses", Container: "Exercise 1: Parse", Exercise: 1}}}, 0)
}

// withoutLanguage drops what would choose a language from the parent's environment.
func withoutLanguage(env []string) []string {
	var kept []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "WORKSHOP_LANG", "LC_ALL", "LC_MESSAGES", "LANG":
			continue
		}
		kept = append(kept, kv)
	}
	return kept
}

// demoLessonWithTranslation is a workspace with one lesson, its hints and their translations.
func demoLessonWithTranslation(t *testing.T) string {
	root := t.TempDir()
	files := map[string]string{
		"lessons/01-demo/parse.go":        "package demo\n\n// TODO(exercise 1): parse\nfunc Parse() {}\n",
		"lessons/01-demo/README.md":       "# Lesson 01\n\n### Exercise 1: `Parse` (parse.go)\n",
		"lessons/01-demo/hints.md":        "# Hints\n\n## Exercise 1\n\n### Hint 1: the idea\n\nRead the docs.\n\n### Hint 2: the API\n\nUse it.\n",
		"lessons/01-demo/README.zh-CN.md": "# 第 01 课\n\n### 练习 1：`Parse`（parse.go）\n",
		"lessons/01-demo/hints.zh-CN.md":  "# 提示\n\n## 练习 1\n\n### 提示 1：思路\n\n读文档。\n\n### 提示 2：API\n\n用它。\n",
	}
	for rel, content := range files {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
