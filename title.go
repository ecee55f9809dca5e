package tally

import (
	"strings"
	"unicode/utf8"
)

// MaxTitleRunes bounds a title made from a prompt. It is a bound on what
// one pasted prompt can make the store keep, not a display width: a title
// is kept whole, and each surface cuts it to the room it has.
const MaxTitleRunes = 2000

// PromptTitle makes a session title of the first prompt a user typed: its
// first line, trimmed. A prompt of several lines ends in " …" to say there
// is more; a first line longer than MaxTitleRunes is cut with "…". Every
// adapter makes its weak titles with it, so titles look alike whatever the
// agent.
//
// Bytes that are not UTF-8 are kept, each counted as one character: the
// fold replaces them with U+FFFD and counts the repair (FileState.Apply),
// as it does for every text, so a bad byte is neither dropped unseen nor
// shown raw.
func PromptTitle(prompt string) string {
	s := strings.TrimSpace(prompt)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	if utf8.RuneCountInString(s) <= MaxTitleRunes {
		return s
	}
	cut := 0
	for range MaxTitleRunes - 1 {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	return strings.TrimSpace(s[:cut]) + "…"
}
