package codex

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// rolloutLine is the part of a rollout line these tests read, decoded with
// encoding/json independently of the adapter.
type rolloutLine struct {
	Type    string `json:"type"`
	Payload struct {
		Type      string          `json:"type"`
		Name      string          `json:"name"`
		CallID    string          `json:"call_id"`
		Arguments string          `json:"arguments"`
		Output    json.RawMessage `json:"output"`
		Cwd       string          `json:"cwd"`
		Item      struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"item"`
		CollaborationMode struct {
			Mode string `json:"mode"`
		} `json:"collaboration_mode"`
	} `json:"payload"`
}

type planArgs struct {
	Plan []struct {
		Step   string `json:"step"`
		Status string `json:"status"`
	} `json:"plan"`
}

// planCheck records, for one rollout, the list after each update_plan
// output and what Codex's own record says it should be.
type planCheck struct {
	call     string
	accepted bool
	want     []step
	got      []step
}

func checkRollout(t *testing.T, path string) []planCheck {
	t.Helper()
	a := New(Options{Home: t.TempDir()})
	calls := map[string][]step{}
	var checks []planCheck
	prev := []step{}
	lineByLine(t, a, fileInfo(t, a, path), read(t, path), func(line []byte, st *tally.FileState) {
		var l rolloutLine
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatalf("fixture line: %v", err)
		}
		p := l.Payload
		switch {
		case l.Type == "response_item" && p.Type == "function_call" && p.Name == "update_plan":
			var args planArgs
			if err := json.Unmarshal([]byte(p.Arguments), &args); err != nil {
				t.Fatalf("fixture arguments: %v", err)
			}
			want := []step{}
			for _, s := range args.Plan {
				want = append(want, step{s.Step, s.Status})
			}
			calls[p.CallID] = want
		case l.Type == "response_item" && p.Type == "function_call_output" && calls[p.CallID] != nil:
			var out string
			if err := json.Unmarshal(p.Output, &out); err != nil {
				t.Fatalf("fixture output: %v", err)
			}
			c := planCheck{call: p.CallID, accepted: !strings.HasPrefix(out, "failed to parse function arguments")}
			c.want = prev
			if c.accepted {
				c.want = calls[p.CallID]
			}
			c.got = stepsOf(st.Lists[""])
			prev = c.got
			checks = append(checks, c)
		}
	})
	if len(checks) != len(calls) {
		t.Errorf("%d update_plan calls, %d answered", len(calls), len(checks))
	}
	return checks
}

func TestDecoder_RolloutPlanAfterEachAnswer(t *testing.T) {
	for _, path := range rollouts(t) {
		t.Run(scenario(path), func(t *testing.T) {
			for i, c := range checkRollout(t, path) {
				if !reflect.DeepEqual(c.got, c.want) {
					t.Errorf("after call %d (%s, accepted=%v):\ngot  %v\nwant %v", i, c.call, c.accepted, c.got, c.want)
				}
			}
		})
	}
}

func TestDecoder_RolloutEdgeCases(t *testing.T) {
	path := captures(t, "captured/codex-0.169.0/update-plan-edge-cases/codex_home/sessions/*/*/*/rollout-*.jsonl")[0]
	checks := checkRollout(t, path)
	if len(checks) != 4 {
		t.Fatalf("%d plan calls answered, want 4", len(checks))
	}
	t.Run("two steps in progress are accepted", func(t *testing.T) {
		want := []step{{"Step A", "in_progress"}, {"Step B", "in_progress"}, {"Step C", "pending"}}
		if !reflect.DeepEqual(checks[0].got, want) {
			t.Errorf("got %v, want %v", checks[0].got, want)
		}
	})
	t.Run(`status "done" is rejected by Codex and changes nothing`, func(t *testing.T) {
		if checks[1].accepted {
			t.Fatal("fixture: the second call should have been refused")
		}
		if !reflect.DeepEqual(checks[1].got, checks[0].got) {
			t.Errorf("list after the refused call %v, want it unchanged %v", checks[1].got, checks[0].got)
		}
	})
	t.Run("an empty plan clears the list", func(t *testing.T) {
		if len(checks[3].got) != 0 {
			t.Errorf("list after plan [] = %v, want empty", checks[3].got)
		}
	})
}

func TestDecoder_RolloutResumeReplacesPlan(t *testing.T) {
	path := captures(t, "captured/codex-0.169.0/update-plan-resume/codex_home/sessions/*/*/*/rollout-*.jsonl")[0]
	checks := checkRollout(t, path)
	if len(checks) != 7 {
		t.Fatalf("%d plan calls answered, want 7", len(checks))
	}
	// The 5th call is the first of the resumed turn: its 2-step plan
	// replaces the 3 completed steps of the first turn.
	want := []step{{"Add a docstring to greet()", "in_progress"}, {"Re-run the smoke check", "pending"}}
	if !reflect.DeepEqual(checks[4].got, want) {
		t.Errorf("after the resumed turn's first plan: %v, want %v", checks[4].got, want)
	}
	final := []step{{"Add a docstring to greet()", "completed"}, {"Re-run the smoke check", "completed"}}
	if !reflect.DeepEqual(checks[6].got, final) {
		t.Errorf("final list %v, want %v", checks[6].got, final)
	}
}

func scenario(path string) string {
	for dir := filepath.Dir(path); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if filepath.Base(dir) == "codex_home" {
			return filepath.Base(filepath.Dir(dir))
		}
	}
	return filepath.Base(path)
}
