package copilot

import (
	"strconv"
	"testing"

	"github.com/tallyhq/tally"
)

// longPrompt's first line is longer than the 100 bytes the adapter once cut
// titles at.
const longPrompt = "Refactor the parser so that every keyword the grammar names is matched by one table and no switch statement repeats it"

// A title guessed from the first prompt is made as every agent's is
// (tally.PromptTitle): a prompt of several lines says there is more, and a
// long first line is kept, not cut at 100 bytes.
func TestTitle_aPromptMakesItsTitleAsEveryAgentsDoes(t *testing.T) {
	for prompt, want := range map[string]string{
		"Create greet.py\nthen run it": "Create greet.py …",
		longPrompt:                     longPrompt,
	} {
		d := &Decoder{}
		var got string
		line := `{"type":"user.message","data":{"content":` + strconv.Quote(prompt) + `},"timestamp":"2026-11-26T08:00:00Z"}`
		if err := d.Line([]byte(line), 0, func(e tally.Event) {
			if e.Kind == tally.EventMeta && e.Meta.Title != "" {
				got = e.Meta.Title
			}
		}); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("title of %q = %q, want %q", prompt, got, want)
		}
	}
}
