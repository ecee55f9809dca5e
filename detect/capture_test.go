package detect

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// claudeObservations reads a Claude Code session log into observations the
// way an adapter will emit them: a tool_use is a call fingerprinted from
// its name and argument bytes as logged, a tool_result is output, a
// TodoWrite is a list change, and an assistant line with text but no tool
// call ends the turn. It is the test's own reader; adapters do this for
// real once they emit fingerprints.
func claudeObservations(t *testing.T, path string) []Observation {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Observation
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Type      string
			Timestamp time.Time
			Message   struct {
				Content json.RawMessage
			}
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || (line.Type != "assistant" && line.Type != "user") {
			continue
		}
		var blocks []struct {
			Type  string
			Name  string
			Input json.RawMessage
		}
		if json.Unmarshal(line.Message.Content, &blocks) != nil {
			continue // a user prompt as a plain string
		}
		at := line.Timestamp
		calls := false
		for _, b := range blocks {
			switch b.Type {
			case "tool_use":
				calls = true
				out = append(out, ToolCall(Fingerprint(b.Name, b.Input), at))
				if b.Name == "TodoWrite" {
					out = append(out, ListChanged(todoState(t, b.Input), at))
				}
			case "tool_result":
				out = append(out, Output(at))
			}
		}
		if line.Type == "assistant" && !calls {
			out = append(out, TurnEnded(at))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func todoState(t *testing.T, input json.RawMessage) ListState {
	var in struct{ Todos []struct{ Status string } }
	if err := json.Unmarshal(input, &in); err != nil {
		t.Fatal(err)
	}
	l := ListState{Total: len(in.Todos)}
	for _, td := range in.Todos {
		if td.Status != "completed" {
			l.Open++
		}
	}
	return l
}

// TestRules_realClaudeLoop: a real Claude Code session that ran `ls` five
// times in a row is looping from the fourth call; stopped one call short,
// it is not.
func TestRules_realClaudeLoop(t *testing.T) {
	obs := claudeObservations(t, "testdata/claude-loop/session.jsonl")
	var calls []time.Time
	for _, o := range obs {
		if o.Kind == KindToolCall {
			calls = append(calls, o.At)
		}
	}
	// ToolSearch, TodoWrite, then five Bash calls.
	if len(calls) != 7 {
		t.Fatalf("%d tool calls in the capture, want 7", len(calls))
	}
	fourthLs := calls[5]
	end := obs[len(obs)-1].At

	r := DefaultRules()
	var s State
	for _, o := range obs {
		r.Observe(&s, o)
	}
	// The turn ended with text: a person is next, so no stall however long.
	got := r.Flags(&s, end.Add(time.Hour))
	if want := (tally.Flags{}).With(tally.FlagLooping, fourthLs); got != want {
		t.Errorf("flags = %s, want looping since the fourth ls (%v)", detail(got), fourthLs)
	}

	// With a lower no-progress threshold the same calls are no progress
	// too: five calls since the list changed, both items open.
	r.NoProgressCalls = 5
	s = State{}
	for _, o := range obs {
		r.Observe(&s, o)
	}
	if got := r.Flags(&s, end); !got.Has(tally.FlagNoProgress) || !got.Since(tally.FlagNoProgress).Equal(calls[6]) {
		t.Errorf("flags = %s, want no_progress since the fifth ls", got)
	}

	// Cut before the fourth ls: three in a row is not a loop.
	r = DefaultRules()
	s = State{}
	for _, o := range obs {
		if o.At.Before(fourthLs) {
			r.Observe(&s, o)
		}
	}
	if got := r.Flags(&s, fourthLs); got.Has(tally.FlagLooping) {
		t.Errorf("three calls flagged: %s", got)
	}
}
