package l10n

import "testing"

// Each case breaks the structure of a translation in one way and names the problems it must
// cause, each by words it must hold. Labels and prose may change freely (the last cases).
func TestParity(t *testing.T) {
	for _, c := range []struct {
		name  string
		edits []edit
		want  [][]string
	}{
		{"a missing code block", []edit{{readme, "```go\ngvk, err := ParseGVK(\"apps/v1\", \"Deployment\")\n```\n", ""}},
			[][]string{{readme + ": the English's code block at README.md:33 is missing here", "gvk, err := ParseGVK"}}},
		{"a code block translated", []edit{{readme, "# one exercise only", "# 只检查一个练习"}},
			[][]string{{readme + ":8: code block differs from the English's at README.md:7", "in its line 3", "# 只检查一个练习"}}},
		{"a code block the English lacks", []edit{{readme, "## 检查\n", "## 检查\n\n```sh\nmake cluster\n```\n"}},
			[][]string{{readme + ":42: a code block the English does not have", "make cluster"}}},
		{"a Mermaid node id renamed", []edit{{readme, `|"监视"| ctrl[`, `|"监视"| ctl[`}},
			[][]string{{readme + ":18: the Mermaid diagram's structure differs", "node ids not in the English: ctl",
				"edges missing: obj --> ctrl", "edges not in the English: obj --> ctl"}}},
		{"a Mermaid edge dropped", []edit{{readme, "    ctrl -.->|\"调谐\"| api[(\"API 服务器\")]\n", "    api[(\"API 服务器\")]\n"}},
			[][]string{{"Mermaid", "edges missing: ctrl -.-> api"}}},
		{"a link dropped", []edit{{readme, "[指南](../../docs/guide.md#before-you-start)", "指南"}},
			[][]string{{readme + ": no link to ../../docs/guide.md, which the English has at README.md:15"}}},
		{"an external URL changed", []edit{{readme, "kubernetes.io/docs/", "kubernetes.io/zh-cn/docs/"}},
			[][]string{{"no link to https://kubernetes.io/docs/concepts/"}, {readme + ":38: a link to https://kubernetes.io/zh-cn/docs/"}}},
		{"a fragment that names no heading", []edit{{readme, "#练习-1parsegvkparsego", "#练习-1"}},
			[][]string{{readme + ":26: links to #练习-1, which no heading of " + readme + " has"}}},
		{"a fragment into another page", []edit{{readme, "guide.md#before-you-start", "guide.md#开始之前"}},
			[][]string{{"links to #开始之前, which no heading of docs/guide.md has"}}},
		{"a translation not there yet", []edit{{readme, "../../docs/guide.md#", "../../docs/guide.zh-CN.md#"}},
			[][]string{{readme + ":16: links to ../../docs/guide.zh-CN.md, which is not translated yet: link the English ../../docs/guide.md"}}},
		{"a make command dropped", []edit{{readme, "然后 `make progress` 会显示", "然后进度命令会显示"}},
			[][]string{{readme + ": `make progress` is missing (the English has it at README.md:48)"}}},
		{"a make command translated", []edit{{hints, "`make hint EXERCISE=N`", "`make 提示 EXERCISE=N`"}},
			[][]string{{hints + ": `make hint EXERCISE=N` is missing"}, {hints + ":4: `make 提示 EXERCISE=N` is not in the English"}}},
		{"a hint level dropped", []edit{{hints, "### 提示 3：草图\n\n1. 让库来拆分 `apiVersion`。\n", ""}},
			[][]string{{hints + ":6: 练习 1 has 2 hint levels", "the English 3 (hints.md:5)"}}},
		{"a folded hint level unmarked", []edit{{hints, "<summary>提示 3：草图", "<summary>草图"}},
			[][]string{{"练习 2 has 2 hint levels", "the English 3"}}},
		{"an exercise's hints missing", []edit{{hints, "## 练习 2", "## 其他"}},
			[][]string{{hints + ": no \"## 练习 2\" section: the English has the hints of exercise 2 at hints.md:19"}}},
		{"an exercise renumbered", []edit{{readme, "### 练习 2：", "### 练习 3："}},
			[][]string{{"its exercises are [1 3]", "the English's [1 2]"}}},
		{"an exercise heading with an ASCII colon", []edit{{readme, "### 练习 2：", "### 练习 2:"}},
			[][]string{{"its exercises are [1]", "the English's [1 2]"}}},
		{"a code span lost from a title", []edit{{readme, "`NewMapper` 与 `MapKind`", "`NewMapper` 与 MapKind"}},
			[][]string{{readme + ":36: 练习 2's title has the code spans [\"NewMapper\"], the English's [\"MapKind\" \"NewMapper\"] (README.md:37)"}}},
		{"a file name changed in a title", []edit{{readme, "（mapper.go）", "（mapping.go）"}},
			[][]string{{"练习 2's title names the files [\"mapping.go\"], the English's [\"mapper.go\"]"}}},
		{"labels and prose translated freely", []edit{{readme, `"监视"`, `"观察"`}, {readme, "比较现状与应有的状态", "把现状和期望对比"}}, nil},
		{"the language line: each links the other", []edit{{"README.zh-CN.md", "[English](README.md)", "[English](./README.md)"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			expect(t, c.name, problems(t, fixture(t, c.edits...)), c.want...)
		})
	}
}
