package openclaw

import (
	"strconv"
	"testing"
)

// longPrompt's first line is longer than the 100 bytes the adapter once cut
// titles at.
const longPrompt = "Refactor the parser so that every keyword the grammar names is matched by one table and no switch statement repeats it"

// A title guessed from the first prompt is made as every agent's is
// (tally.PromptTitle): a prompt of several lines says there is more, and a
// long first line is kept, not cut at 100 bytes.
func TestTitle_aPromptMakesItsTitleAsEveryAgentsDoes(t *testing.T) {
	for prompt, want := range map[string]string{
		"Refresh the docs\nand check the links": "Refresh the docs …",
		longPrompt:                              longPrompt,
	} {
		w := &window{}
		ev := `{"type":"message","timestamp":"2026-11-26T08:00:00Z","message":{"role":"user","content":` + strconv.Quote(prompt) + `}}`
		if err := w.event([]byte(ev)); err != nil {
			t.Fatal(err)
		}
		if w.prompt != want {
			t.Errorf("title of %q = %q, want %q", prompt, w.prompt, want)
		}
	}
}
