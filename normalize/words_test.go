package normalize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/hermes"
)

// A line cut short is reported in the same words whichever agent's stream
// it is in: the agent, the line's place and what is wrong, never the name
// of a function inside Tally.
func TestRun_aLineCutShortIsWordedAlikeForEveryAgent(t *testing.T) {
	all := adapters()
	all["hermes"] = hermes.New(hermes.Options{Home: "/nonexistent"})
	for name := range all {
		t.Run(name, func(t *testing.T) {
			var o, e strings.Builder
			err := Run(t.Context(), strings.NewReader("{\"x\":1\n"), &o, &e, Options{Agent: name, Adapters: all, Now: fixedNow})
			if tally.ErrorCode(err) != tally.CodeInvalid {
				t.Fatalf("err %v, want CodeInvalid: no line could be read", err)
			}
			want := fmt.Sprintf("tally normalize: line 1: %s: line at offset 0 is not a JSON object (cut short or garbled?)\n", name)
			if first, _, _ := strings.Cut(e.String(), "\n"); first+"\n" != want {
				t.Errorf("stderr %q, want it to start %q", e.String(), want)
			}
		})
	}
}

// A line shaped like an object that is not JSON is worded alike too, for
// the agents whose streams are parsed line by line whatever they hold.
func TestRun_aLineThatIsNotJSONIsWordedAlike(t *testing.T) {
	all := map[string]tally.StreamReader{"acp": adapters()["acp"], "hermes": hermes.New(hermes.Options{Home: "/nonexistent"})}
	for name := range all {
		var o, e strings.Builder
		if err := Run(t.Context(), strings.NewReader("{\"jsonrpc\":\"2.0\",\"role\":}\n"), &o, &e, Options{Agent: name, Adapters: all, Now: fixedNow}); tally.ErrorCode(err) != tally.CodeInvalid {
			t.Fatalf("err %v, want CodeInvalid: no line could be read", err)
		}
		want := fmt.Sprintf("tally normalize: line 1: %s: line at offset 0 is not valid JSON: ", name)
		if !strings.HasPrefix(e.String(), want) {
			t.Errorf("%s: stderr %q, want it to start %q", name, e.String(), want)
		}
	}
}
