// Package l10n keeps the Simplified Chinese edition in step with the English one (issue 40).
//
// A translation is X.zh-CN.md beside its English X.md (a lesson's README and hints, the root
// README, a page of docs/). Its first line names the English text it was translated from:
//
//	<!-- l10n: source=README.md sha256=<sha256 of README.md's bytes, 64 lowercase hex> -->
//
// so a translation cannot silently fall behind: when the English changes, its sha256 no longer
// matches, and Check says so with the English diff since then (the version in git history whose
// bytes have the header's sha256, compared with the file as it is now).
//
// Check also compares the structure of each translation with its English, which a translator
// must keep and a reader cannot easily see: the code blocks (byte for byte; a Mermaid diagram's
// node ids and edges, whose labels are translated), the link targets, the `make ...` commands,
// the exercises and the hint levels. And it holds every translation to the glossary,
// docs/glossary.zh-CN.md: one Chinese word per term, introduced with its English in brackets.
//
// The package reads files and runs git; it prints nothing. make test (internal/proof) and
// make l10n-diff (scripts/workshop) print what it finds.
package l10n
