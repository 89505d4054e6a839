package proof

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"workshop.local/scripts/internal/lessons"
	"workshop.local/scripts/internal/lessons/variants"
)

// mistakesDoc is the instructors' list of common mistakes, in English and Simplified Chinese.
// Both are written from the headers of the wrong solutions (`make mistakes`), so they name
// exactly the mistakes `make test` proves the specs catch, and cannot drift from them: a static
// check compares them.
const (
	mistakesDoc        = "docs/mistakes.md"
	mistakesDocChinese = "docs/mistakes.zh-CN.md"
)

// mistakesWords are the sentences of one language's list; each header's sentence comes from the
// patch (its first line in English, its second in Chinese).
type mistakesWords struct {
	title, intro, lesson, exercise, brokenIntro string
	summary                                     func(variants.Patch) string
	line                                        string // the sentence, the patch's folder/name, its file, a note
	// signature notes what make signatures measured: specs failed of the exercise's, and the
	// mistakes that fail the same ones (the specs cannot tell those apart).
	signature, sameAs, and string
}

var (
	englishMistakes = mistakesWords{
		title: "# Common mistakes, per exercise\n\nEnglish | [简体中文](mistakes.zh-CN.md)\n\n",
		intro: "Written by `make mistakes` from the wrong solutions in `solutions/NN-topic/wrong/`; do not edit\n" +
			"by hand. Each line is a mistake learners make, kept as a wrong solution that `make test` proves\n" +
			"the exercise's specs catch. The patch says why it is wrong: walk the room through one\n" +
			"when many learners are stuck on the same exercise.\n",
		lesson:      "\n## Lesson %s (`%s`)\n",
		exercise:    "\nExercise %d:\n\n",
		brokenIntro: "The learner's specs must catch each broken operator (its patch says how it is broken):\n\n",
		summary:     func(p variants.Patch) string { return sentence(p.Summary) + "." },
		line:        "- %s (`%s/%s.patch`, in %s%s)\n",
		signature:   "; fails %d of %d specs",
		sameAs:      ", the same as %s",
		and:         ", ",
	}
	chineseMistakes = mistakesWords{
		title: "# 常见错误（按练习）\n\n[English](mistakes.md) | 简体中文\n\n",
		intro: "本页由 `make mistakes` 根据 `solutions/NN-topic/wrong/` 中的错误解答生成，请勿手工编辑。\n" +
			"每一行是学员会犯的一个错误，都保存为一个错误解答，`make test` 证明该练习的 spec 能抓出它。\n" +
			"patch 文件（英文）说明它错在哪里：很多学员卡在同一个练习上时，可以带全班过一遍其中一个。\n",
		lesson:      "\n## 第 %s 课（`%s`）\n",
		exercise:    "\n练习 %d：\n\n",
		brokenIntro: "学员自己的 spec 必须抓出每一个有缺陷的 Operator（它的 patch 说明缺陷在哪里）：\n\n",
		summary:     func(p variants.Patch) string { return p.Chinese + "。" },
		line:        "- %s（`%s/%s.patch`，在 %s 中%s）\n",
		signature:   "；%d/%d 个 spec 失败",
		sameAs:      "，与 %s 相同",
		and:         "、",
	}
)

// renderMistakes writes the list in one language: per lesson and exercise, each mistake and its
// patch.
func renderMistakes(root string, words mistakesWords) ([]byte, error) {
	all, err := lessons.Discover(root)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(words.title + words.intro)
	for _, l := range all {
		list, err := variants.Wrong(l)
		if err != nil {
			return nil, err
		}
		writeLessonMistakes(&b, words, l, list)
	}
	return b.Bytes(), nil
}

func writeLessonMistakes(b *bytes.Buffer, words mistakesWords, l lessons.Lesson, list []variants.Patch) {
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(b, words.lesson, l.Number, l.Name)
	sigs, _, _ := variants.ReadSignatures(l)
	for _, n := range l.Exercises {
		fmt.Fprintf(b, words.exercise, n)
		writeBrokenOperators(b, words, l, n)
		for _, w := range list {
			if w.Problem == "" && w.Exercise == n {
				fmt.Fprintf(b, words.line, words.summary(w), w.Kind.Dir, w.Name, w.File, signatureNote(words, sigs, w.Name))
			}
		}
	}
}

// signatureNote is what make signatures measured of a mistake, "" when nothing was kept.
func signatureNote(words mistakesWords, sigs variants.Signatures, name string) string {
	s, ok := sigs.Wrong[name]
	if !ok || s.Unstable {
		return ""
	}
	note := fmt.Sprintf(words.signature, len(s.Failing), len(sigs.Specs[s.Exercise]))
	var same []string
	for _, other := range slices.Sorted(maps.Keys(sigs.Wrong)) {
		o := sigs.Wrong[other]
		if other != name && !o.Unstable && o.Exercise == s.Exercise && slices.Equal(o.Failing, s.Failing) {
			same = append(same, "`"+other+"`")
		}
	}
	if len(same) > 0 {
		note += fmt.Sprintf(words.sameAs, strings.Join(same, words.and))
	}
	return note
}

// writeBrokenOperators lists what the learner's own specs must catch in a "write your own
// specs" exercise: the broken operators of solutions/NN-topic/broken/, by the behaviour each
// gets wrong.
func writeBrokenOperators(b *bytes.Buffer, words mistakesWords, l lessons.Lesson, exercise int) {
	broken, _ := variants.Broken(l)
	if !l.IsOwnSpecs(exercise) || len(broken) == 0 {
		return
	}
	b.WriteString(words.brokenIntro)
	for _, o := range broken {
		if o.Problem == "" {
			fmt.Fprintf(b, words.line, words.summary(o), o.Kind.Dir, o.Name, o.File, "")
		}
	}
}

// renderBothMistakes is the list in English and its Chinese, which names the English it was
// written beside (the header every translation carries, so the translation checks read it as
// current).
func renderBothMistakes(root string) (english, chinese []byte, err error) {
	if english, err = renderMistakes(root, englishMistakes); err != nil {
		return nil, nil, err
	}
	body, err := renderMistakes(root, chineseMistakes)
	if err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(english)
	header := fmt.Sprintf("<!-- l10n: source=%s sha256=%x -->\n", path.Base(mistakesDoc), sum)
	return english, append([]byte(header), body...), nil
}

// WriteMistakes is `make mistakes`.
func WriteMistakes(root string) (bool, error) {
	english, chinese, err := renderBothMistakes(root)
	if err != nil {
		return false, err
	}
	for doc, data := range map[string][]byte{mistakesDoc: english, mistakesDocChinese: chinese} {
		if err := os.WriteFile(filepath.Join(root, doc), data, 0o644); err != nil {
			return false, err
		}
	}
	fmt.Printf("wrote %s and %s (%d lines each)\n", mistakesDoc, mistakesDocChinese, bytes.Count(english, []byte("\n")))
	return true, nil
}

// mistakesCurrent is the static check that the instructors' list, in both languages, matches
// the wrong solutions.
func (t *tester) mistakesCurrent(context.Context) (string, error) {
	english, chinese, err := renderBothMistakes(t.root)
	if err != nil {
		return "", err
	}
	for _, doc := range []struct {
		path string
		want []byte
	}{{mistakesDoc, english}, {mistakesDocChinese, chinese}} {
		have, err := os.ReadFile(filepath.Join(t.root, doc.path))
		if err != nil || !bytes.Equal(have, doc.want) {
			return "", errors.New(doc.path + " does not list the current wrong solutions: run `make mistakes` and commit it")
		}
	}
	return fmt.Sprintf("%d mistakes listed, in English and Chinese", strings.Count(string(english), "\n- ")), nil
}

// sentence capitalizes the header's first letter: headers read "it does X" after their colon.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// WriteSums is `make sums`: lessons/specs.sha256 from the specs and support files as they are.
func WriteSums(root string) (bool, error) {
	all, err := lessons.Discover(root)
	if err != nil {
		return false, err
	}
	data, err := lessons.RenderSums(root, all)
	if err != nil {
		return false, err
	}
	if err := os.WriteFile(filepath.Join(root, lessons.SumsFile), data, 0o644); err != nil {
		return false, err
	}
	fmt.Printf("wrote %s (%d files)\n", lessons.SumsFile, bytes.Count(data, []byte("\n"))-2)
	return true, nil
}

// sumsCurrent is the static check that lessons/specs.sha256 matches the specs as committed:
// a maintainer who changes a spec runs make sums, or every learner's check stops counting.
func (t *tester) sumsCurrent(context.Context) (string, error) {
	all, err := lessons.Discover(t.root) // every lesson's, even when make test proves one
	if err != nil {
		return "", err
	}
	want, err := lessons.RenderSums(t.root, all)
	if err != nil {
		return "", err
	}
	have, err := os.ReadFile(filepath.Join(t.root, lessons.SumsFile))
	if err != nil || !bytes.Equal(have, want) {
		return "", errors.New(lessons.SumsFile + " does not match the specs and support files: run `make sums` and commit it")
	}
	return fmt.Sprintf("%d files", bytes.Count(want, []byte("\n"))-2), nil
}
