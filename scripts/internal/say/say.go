// Package say speaks to the learner in the learner's language: Simplified Chinese when
// WORKSHOP_LANG asks for it or the locale (LC_ALL, LC_MESSAGES, LANG, in POSIX's order) is
// Chinese, English otherwise. Only the learner's loop speaks through it (make check's summary
// and next steps, make hint, make watch, make progress, make reset and make solution); the
// maintainers' output and the specs' failure messages stay English.
//
// A line is written in English, as the key of its translation in the catalog (zh.go): in
// English it is printed exactly as written, with fmt, so English output is what it always was.
package say

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// LangEnv names the workshop's own language setting: zh-CN (or any Chinese tag) or en.
const LangEnv = "WORKSHOP_LANG"

// The languages the learner's loop speaks, the first the default.
var supported = []language.Tag{language.English, language.SimplifiedChinese}

var matcher = language.NewMatcher(supported)

// Language is the language the environment asks for: the first of WORKSHOP_LANG, LC_ALL,
// LC_MESSAGES and LANG that is set decides. A locale such as zh_CN.UTF-8 is read as the tag
// zh-CN; one the matcher cannot place (C, POSIX, a language the workshop does not speak) is
// English.
func Language(getenv func(string) string) language.Tag {
	for _, name := range []string{LangEnv, "LC_ALL", "LC_MESSAGES", "LANG"} {
		value := getenv(name)
		if value == "" {
			continue
		}
		tag, err := language.Parse(localeTag(value))
		if err != nil {
			return language.English
		}
		_, i, confidence := matcher.Match(tag)
		if confidence == language.No {
			return language.English
		}
		return supported[i]
	}
	return language.English
}

// localeTag turns a POSIX locale (zh_CN.UTF-8, zh_CN@stroke) into a BCP 47 tag (zh-CN).
func localeTag(locale string) string {
	if i := strings.IndexAny(locale, ".@"); i >= 0 {
		locale = locale[:i]
	}
	return strings.ReplaceAll(locale, "_", "-")
}

// learner is the learner's language, read once: the environment does not change in a run.
var learner = Language(os.Getenv)

// printer prints the catalog's translation of a line, or the line itself where it has none.
var printer = message.NewPrinter(learner, message.Catalog(zhCatalog))

// Chinese says whether the learner reads Chinese: the loop then reads a lesson's
// README.zh-CN.md and hints.zh-CN.md where they exist.
func Chinese() bool { return learner == language.SimplifiedChinese }

// Fprintf writes a learner's line in the learner's language.
func Fprintf(w io.Writer, format string, a ...any) {
	if !Chinese() {
		fmt.Fprintf(w, format, a...)
		return
	}
	printer.Fprintf(w, format, a...)
}

// Sprintf is a learner's line in the learner's language.
func Sprintf(format string, a ...any) string {
	if !Chinese() {
		return fmt.Sprintf(format, a...)
	}
	return printer.Sprintf(format, a...)
}

// Printf writes a learner's line to standard output.
func Printf(format string, a ...any) { Fprintf(os.Stdout, format, a...) }

// Errorf is an error a learner reads, in the learner's language.
func Errorf(format string, a ...any) error { return fmt.Errorf("%s", Sprintf(format, a...)) }
