package say

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// zh holds the Simplified Chinese of every line the learner's loop prints, keyed by the English
// line as the code writes it. The words are docs/glossary.zh-CN.md's: spec, Operator and make
// commands stay as they are; 练习 (exercise), 提示 (hint), 解答 (solution), 起始代码 (the
// starter). A test holds every say.* line of the loop to an entry here with the same verbs.
var zh = map[string]string{
	"Checking lesson %s against the workshop cluster...\n\n": "正在用工作坊集群检查第 %s 课……\n\n",
	"Running the specs": "正在运行 spec",
	"Proving your specs against the reference operator and %d broken ones (a build and a run each: a minute or more)": "正在用参考 Operator 和 %d 个有缺陷的 Operator 验证你的 spec（每个都要构建并运行一次：一分钟或更久）",
	"%s...\n": "%s……\n",
	"Ginkgo's whole output: %s (or VERBOSE=1)":                                                 "Ginkgo 的完整输出：%s（或使用 VERBOSE=1）",
	"\nLesson %s did not run: %s\n":                                                            "\n第 %s 课没有运行：%s\n",
	"%d more specs panicked; their stack traces are left out (VERBOSE=1 shows them).\n":        "另有 %d 个 spec 发生了 panic，这里省略了它们的栈跟踪（VERBOSE=1 会显示）。\n",
	"No spec of lesson %s ran, so nothing passed: make check LESSON=%s VERBOSE=1 shows why.\n": "第 %s 课没有任何 spec 运行，所以没有任何练习通过：make check LESSON=%s VERBOSE=1 会显示原因。\n",
	"  [%s] %-48s %d of %d specs pass\n":                                                       "  [%s] %-48s %d/%d 个 spec 通过\n",
	"\nLesson %s: %d of %d exercises pass":                                                     "\n第 %s 课：%d/%d 个练习通过",
	" (only exercise %d was checked)":                                                          "（只检查了练习 %d）",
	".\n":                                                                                      "。\n",
	"Exercise %d is judged against the reference operator and %d broken ones once the others pass, or alone: make check LESSON=%s EXERCISE=%d.\n": "练习 %d 要等其他练习都通过后，才用参考 Operator 和 %d 个有缺陷的 Operator 来评判；也可以单独评判：make check LESSON=%s EXERCISE=%d。\n",
	"Next: %s.\n":                          "下一步：%s。\n",
	"  edit  %s:%d  (TODO(exercise %d))\n": "  编辑  %s:%d  （TODO(exercise %d)）\n",
	"  hints make hint LESSON=%s EXERCISE=%d  (one level at a time)\n":                                                         "  提示  make hint LESSON=%s EXERCISE=%d  （每次一级）\n",
	"  first failing spec: %s\n":                                                                                               "  第一个失败的 spec：%s\n",
	"  check it alone: make check LESSON=%s EXERCISE=%d, or at every save: make watch LESSON=%s\n":                             "  单独检查它：make check LESSON=%s EXERCISE=%d；或者每次保存时都检查：make watch LESSON=%s\n",
	"  the proof operator by operator, as it runs: make specs LESSON=%s (the reference and %d broken ones)\n":                  "  逐个 Operator 查看验证过程：make specs LESSON=%s（参考 Operator 和 %d 个有缺陷的 Operator）\n",
	"Exercise %d passes. Check the whole lesson: make check LESSON=%s\n":                                                       "练习 %d 通过了。检查整课：make check LESSON=%s\n",
	"Well done. On to lesson %s: lessons/%s/README.md, then make check LESSON=%s\n":                                            "做得好。继续第 %s 课：先读 lessons/%s/README.md，然后运行 make check LESSON=%s\n",
	"Well done: that was the last lesson.\n":                                                                                   "做得好：这是最后一课了。\n",
	"lesson %s has no hints for exercise %d in %s":                                                                             "第 %[1]s 课的 %[3]s 中没有练习 %[2]d 的提示",
	"Lesson %s, exercise %d: %s\nYour last check failed exactly as this known mistake does (it counts as a hint):\n\n  %s\n\n": "第 %s 课，练习 %d：%s\n你上一次检查的失败方式与这个已知错误完全一样（这算用了一次提示）：\n\n  %s\n\n",
	"Again for the hint levels: make hint LESSON=%s EXERCISE=%d\n":                                                             "再运行一次可看各级提示：make hint LESSON=%s EXERCISE=%d\n",
	"  known mistakes named %d":                                                                                                "  已指出的已知错误 %d 个",
	"  it fails as the known mistake make hint named: %s\n":                                                                    "  它的失败方式与 make hint 指出的已知错误相同：%s\n",
	"  this failure matches a mistake learners often make: h names it (it counts as a hint)\n":                                 "  这次失败与学员常犯的一个错误相符：按 h 会指出它（这算用了一次提示）\n",
	"  this failure matches a mistake learners often make: make hint LESSON=%s EXERCISE=%d names it (it counts as a hint)\n":   "  这次失败与学员常犯的一个错误相符：make hint LESSON=%s EXERCISE=%d 会指出它（这算用了一次提示）\n",
	"Lesson %s, exercise %d: %s\nHint %d of %d: %s\n\n%s\n\n":                                                                  "第 %s 课，练习 %d：%s\n提示 %d/%d：%s\n\n%s\n\n",
	"Again for the next level: make hint LESSON=%s EXERCISE=%d\n":                                                              "再运行一次可看下一级：make hint LESSON=%s EXERCISE=%d\n",
	"That was the last hint. Once the exercise passes, compare with the reference: make solution LESSON=%s EXERCISE=%d\n":      "这是最后一级提示。练习通过后，可以与参考解答对比：make solution LESSON=%s EXERCISE=%d\n",
	"lesson %s has no exercise %d: it has %d":                                                                                  "第 %s 课没有练习 %d：它有 %d 个练习",
	"\nYour versions saved by make reset, in .progress/backups/:\n  %s\n":                                                      "\nmake reset 保存的你的版本，在 .progress/backups/ 中：\n  %s\n",
	"\nNext: %s\n":          "\n下一步：%s\n",
	"  hints %d/%d":         "  提示 %d/%d",
	"  solution seen early": "  提前看过解答",
	"lesson %s exercise %d (%s): make watch LESSON=%s":                                             "第 %s 课练习 %d（%s）：make watch LESSON=%s",
	"every exercise passes. Well done.":                                                            "所有练习都通过了。做得好。",
	"exercise %d of lesson %s (%s)":                                                                "第 %[2]s 课的练习 %[1]d（%[3]s）",
	"ALL of lesson %s (%s)":                                                                        "第 %s 课的全部练习（%s）",
	"Put back the starter of %s? Your version is backed up first. [y/N] ":                          "把%s恢复为起始代码吗？会先备份你的版本。[y/N] ",
	"Nothing reset.\n":                                                                             "没有重置任何内容。\n",
	"Nothing reset.":                                                                               "没有重置任何内容。",
	"Nothing to reset: already the starter (%s).\n":                                                "无需重置：已经是起始代码（%s）。\n",
	"Reset %s to the starter.\n":                                                                   "已把 %s 重置为起始代码。\n",
	"Your version is saved in %s/ (every backup: ls .progress/backups).\n":                         "你的版本保存在 %s/ 中（所有备份：ls .progress/backups）。\n",
	"The versions they replaced are saved in %s/. The specs count again.\n":                        "被替换的版本保存在 %s/ 中。spec 的结果重新计入。\n",
	"Exercise %d of lesson %s has not passed yet, so its solution stays folded.\n":                 "第 %[2]s 课的练习 %[1]d 还没有通过，所以它的解答仍然折叠着。\n",
	"Check it (make check LESSON=%s EXERCISE=%d), try a hint (make hint LESSON=%s EXERCISE=%d),\n": "检查它（make check LESSON=%s EXERCISE=%d），试试提示（make hint LESSON=%s EXERCISE=%d），\n",
	"or see it anyway, which your progress records: make solution LESSON=%s EXERCISE=%d FORCE=1\n": "或者仍然查看它（你的进度会记下这一点）：make solution LESSON=%s EXERCISE=%d FORCE=1\n",
	"The reference solution of exercise %d as a diff: - your lines, + the solution's.\n":           "练习 %d 的参考解答，以 diff 显示：- 是你的行，+ 是解答的行。\n",
	"(%s also holds exercise %v: its differences show as well.)\n":                                 "（%s 中还有练习 %v：它的差异也会显示出来。）\n",
	"lesson %s's README lists no exercises":                                                        "第 %s 课的 README 没有列出任何练习",
	"lesson %s's README lists no exercises to watch: %v":                                           "第 %s 课的 README 没有列出可供 watch 的练习：%v",
	"Stopped watching. Your progress is saved: make progress\n":                                    "已停止 watch。你的进度已保存：make progress\n",
	"checking exercise %d...":                                                                      "正在检查练习 %d……",
	"checking the whole lesson...":                                                                 "正在检查整课……",
	"%s the specs did not run: %s\n":                                                               "%s spec 没有运行：%s\n",
	"%s %s: %d of %d specs pass\n":                                                                 "%s %s：%d/%d 个 spec 通过\n",
	"checked in %.1f s after the save (rebuild %.1f s)":                                            "保存后 %.1f 秒完成检查（重新构建 %.1f 秒）",
	"%s exercise %d passes: all %d specs.\n":                                                       "%s 练习 %d 通过：全部 %d 个 spec。\n",
	"%s exercise %d: %d of %d specs pass. First failure:\n  %s\n":                                  "%s 练习 %d：%d/%d 个 spec 通过。第一个失败：\n  %s\n",
	"%s no spec of exercise %d ran\n":                                                              "%s 练习 %d 没有任何 spec 运行\n",
	"%s Exercise %d passes. On to exercise %d.":                                                    "%s 练习 %d 通过了。继续练习 %d。",
	"Well done.": "做得好。",
	"%s Every exercise of lesson %s passes. Press a to check them all together, q to quit.": "%s 第 %s 课的所有练习都通过了。按 a 一起检查全部练习，按 q 退出。",
	"Lesson done.":     "本课完成。",
	"Reset failed: %v": "重置失败：%v",
	"Put back the starter of exercise %d? Your version is backed up first. Press y to reset, any other key to keep it.": "把练习 %d 恢复为起始代码吗？会先备份你的版本。按 y 重置，按其他任意键保留。",
	"Exercise %d has not passed yet (or is the last): stay with it, or press h for a hint.":                             "练习 %d 还没有通过（或者已是最后一个）：继续做它，或者按 h 查看提示。",
	"%s  %s %d of %d exercises pass\n\n": "%s  %s %d/%d 个练习通过\n\n",
	"Lesson %s":                          "第 %s 课",
	"Exercise %d: %s":                    "练习 %d：%s",
	"edit %s:%d\n":                       "编辑 %s:%d\n",
	"h hint   l list   a whole lesson   r reset exercise   n next   q quit   (checks again on every save)":                                                                                                        "h 提示   l 列表   a 整课   r 重置练习   n 下一个   q 退出   （每次保存都会重新检查）",
	"%s lesson %s does not compile: a file the workspace ships is missing (%s).\nPut it back: make reset LESSON=%s (the workspace's files come back at once; you are asked before any file of yours is reset).\n": "%s 第 %s 课无法编译：工作区自带的一个文件不见了（%s）。\n把它恢复：make reset LESSON=%s（工作区的文件会立即恢复；重置你自己的任何文件之前都会先询问你）。\n",
	"Lesson %s's specs did not build: %v\n":                           "第 %s 课的 spec 没有构建成功：%v\n",
	"%s lesson %s does not compile.\n":                                "%s 第 %s 课无法编译。\n",
	"\nIn exercise %d:\n":                                             "\n在练习 %d 中：\n",
	"\nOutside any exercise:\n":                                       "\n不属于任何练习：\n",
	"\nFix these first: no spec can run until the lesson compiles.\n": "\n请先修复这些错误：本课能编译之前，任何 spec 都无法运行。\n",
	"These results do not count: the specs, or the code they run on, are not as the workspace ships them (%s).\nYour progress is not marked, solutions stay folded and the board is not told. Put them back: make reset LESSON=%s": "这些结果不计入：spec 或它们所运行的代码与工作区自带的不一致（%s）。\n你的进度不会被标记，解答仍然折叠，看板也不会收到通知。把它们恢复：make reset LESSON=%s",
	"no lesson %q: pick one of %s, e.g. make check LESSON=01":              "没有第 %q 课：可选的有 %s，例如 make check LESSON=01",
	"which lesson? make %s LESSON=01 (or run it inside lessons/NN-topic/)": "哪一课？make %s LESSON=01（或者在 lessons/NN-topic/ 目录中运行）",
	"EXERCISE=%q is not an exercise number: use EXERCISE=1, 2, ...":        "EXERCISE=%q 不是练习编号：请用 EXERCISE=1、2……",
	"lesson %s has no exercise %d: its exercises are 1 to %d":              "第 %s 课没有练习 %d：它的练习是 1 到 %d",
}

// zhCatalog is zh as golang.org/x/text's catalog, which the printer looks lines up in.
var zhCatalog = func() catalog.Catalog {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for english, chinese := range zh {
		if err := b.SetString(language.SimplifiedChinese, english, chinese); err != nil {
			panic(err) // a malformed entry: the test of this package fails first
		}
	}
	return b
}()
