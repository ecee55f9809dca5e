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
// first line, trimmed, as valid UTF-8. A prompt of several lines ends in
// " …" to say there is more; a first line longer than MaxTitleRunes is cut
// with "…". Every adapter makes its weak titles with it, so titles look
// alike whatever the agent.
func PromptTitle(prompt string) string {
	s := strings.ToValidUTF8(strings.TrimSpace(prompt), "")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	if utf8.RuneCountInString(s) <= MaxTitleRunes {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:MaxTitleRunes-1])) + "…"
}
