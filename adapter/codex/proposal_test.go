package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// The lines of a Plan-mode turn as Codex 0.169 writes them: turn_context
// carries the collaboration mode (as in every captured rollout, there
// "default"), and the proposed plan is an item_completed event whose item
// is a TurnItem::Plan {id, text} (codex-rs protocol/src/items.rs), kept in
// the rollout by should_persist_event_msg.
func turnContext(ts, mode string) string {
	return rec(ts, "turn_context", fmt.Sprintf(`{"turn_id":"t%s","cwd":"/w","model":"gpt-5.5","collaboration_mode":{"mode":%q,"settings":{"model":"gpt-5.5","reasoning_effort":null,"developer_instructions":null}}}`, ts, mode))
}

func planItem(ts, id, text string) string {
	b, _ := json.Marshal(text)
	return rec(ts, "event_msg", fmt.Sprintf(`{"type":"item_completed","thread_id":"th","turn_id":"t1","item":{"type":"Plan","id":%q,"text":%s}}`, id, b))
}

const proposed = "# Add a health check\n\n## Summary\nServe /health.\n\n## Steps\n1. Add the /health handler\n   - return 200\n2. Test it\n3. Note it in the changelog\n"

func planTurn(ts string) []string {
	return []string{
		turnContext(ts+"0", "plan"),
		rec(ts+"1", "event_msg", `{"type":"task_started"}`),
		planItem(ts+"2", "plan-"+ts, proposed),
		rec(ts+"3", "event_msg", `{"type":"task_complete","last_agent_message":"<proposed_plan>…</proposed_plan>"}`),
	}
}

func TestDecoder_aProposedPlanIsItsOwnListAndAsksTheUser(t *testing.T) {
	st := feed(t, planTurn("1")...)
	want := []step{{"Add the /health handler", "pending"}, {"Test it", "pending"}, {"Note it in the changelog", "pending"}}
	if got := stepsOf(st.Lists[tally.ProposalList]); !reflect.DeepEqual(got, want) {
		t.Errorf("proposal %v, want %v", got, want)
	}
	if got := stepsOf(st.Lists[""]); len(got) != 0 {
		t.Errorf("execution list %v, want none: a proposal is not the plan at work", got)
	}
	if st.Signal != tally.SignalAsking {
		t.Errorf("signal %v, want asking: the plan waits for the user's approval", st.Signal)
	}
	r := tally.Merge([]*tally.FileState{st})
	s := r.Session(time.Date(2026, 11, 22, 10, 1, 0, 0, time.UTC))
	if len(s.SubAgents) != 1 || s.SubAgents[0].ID != tally.ProposalList || s.SubAgents[0].Name != proposalName {
		t.Fatalf("session lists %+v, want the proposal named %q", s.SubAgents, proposalName)
	}
	if !s.Flags.Has(tally.FlagNeedsInput) {
		t.Errorf("flags %v, want needs_input", s.Flags)
	}
}

func TestDecoder_aTurnOutsidePlanModeSettlesTheProposal(t *testing.T) {
	lines := append(planTurn("1"), turnContext("20", "default"), rec("21", "event_msg", `{"type":"task_started"}`))
	st := feed(t, lines...)
	if got := stepsOf(st.Lists[tally.ProposalList]); len(got) != 0 {
		t.Errorf("proposal %v after the plan was taken up, want none", got)
	}
	if st.Signal != tally.SignalWorking {
		t.Errorf("signal %v, want working", st.Signal)
	}
	st = feed(t, append(lines, rec("22", "event_msg", `{"type":"task_complete"}`))...)
	if st.Signal != tally.SignalWaiting {
		t.Errorf("signal after the next turn %v, want waiting: nothing waits for approval any more", st.Signal)
	}
}

func TestDecoder_aPlanModeTurnRevisesTheProposal(t *testing.T) {
	revised := planItem("32", "plan-3", "1. Only the handler\n")
	st := feed(t, append(planTurn("1"), turnContext("30", "plan"), rec("31", "event_msg", `{"type":"task_started"}`))...)
	if n := len(stepsOf(st.Lists[tally.ProposalList])); n != 3 {
		t.Errorf("proposal has %d steps while the user revises it, want the 3 proposed", n)
	}
	st = feed(t, append(planTurn("1"), turnContext("30", "plan"), revised, rec("33", "event_msg", `{"type":"task_complete"}`))...)
	if got := stepsOf(st.Lists[tally.ProposalList]); !reflect.DeepEqual(got, []step{{"Only the handler", "pending"}}) {
		t.Errorf("proposal %v, want the revised one", got)
	}
	if st.Signal != tally.SignalAsking {
		t.Errorf("signal %v, want asking", st.Signal)
	}
}

func TestDecoder_aProposalKeepsTheHintOfNoListTool(t *testing.T) {
	a := New(Options{Home: t.TempDir()})
	st := &tally.FileState{Session: "s"}
	meta := rec("00", "session_meta", `{"id":"s","cwd":"/w","cli_version":"0.169.0"}`)
	for _, l := range append([]string{meta}, planTurn("1")...) {
		dec, err := a.NewDecoder(tally.FileInfo{Session: "s"}, st.Decoder)
		if err != nil {
			t.Fatal(err)
		}
		st.Feed(dec, []byte(l+"\n"))
	}
	if st.ListTools != tally.ListToolsNone || st.ListToolsHint == "" {
		t.Errorf("list tools %v, hint %q: a proposed plan is no list tool", st.ListTools, st.ListToolsHint)
	}
}

func TestProposalSteps(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []step
	}{
		{"outermost list items only", "# T\n- a\n  - a.1\n- b\n", []step{{"a", "pending"}, {"b", "pending"}}},
		{"numbered with parens", "1) a\n2) b", []step{{"a", "pending"}, {"b", "pending"}}},
		{"checkboxes", "- [x] done\n- [ ] todo", []step{{"done", "completed"}, {"todo", "pending"}}},
		{"headings below the title when no list", "# Plan\n## Change the API\ntext\n## Test\n", []step{{"Change the API", "pending"}, {"Test", "pending"}}},
		{"the first line when nothing else", "Rename foo to bar everywhere.\nThen done.", []step{{"Rename foo to bar everywhere.", "pending"}}},
		{"empty", "  \n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []step
			for _, it := range proposalSteps(c.text) {
				got = append(got, step{it.Title, it.StatusWord()})
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// On a real Plan-mode session (codex app-server, a turn in Plan mode, then
// "Implement the plan." in Default mode): after the first turn the
// proposal is the plan item's steps and the session asks its user; once
// the turn outside Plan mode starts, the proposal is gone.
func TestRollout_planModeCapture(t *testing.T) {
	paths := captures(t, "captured/codex-0.169.0/plan-mode-app-server/codex_home/sessions/*/*/*/rollout-*.jsonl")
	a := New(Options{Home: t.TempDir()})
	fi := fileInfo(t, a, paths[0])
	data := read(t, paths[0])
	var text string
	first := -1
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		var l rolloutLine
		_ = json.Unmarshal(line, &l)
		if l.Payload.Item.Type == "Plan" {
			text = l.Payload.Item.Text
		}
		if l.Payload.Type == "task_complete" && first < 0 {
			first = i
		}
	}
	if text == "" || first < 0 {
		t.Fatal("the capture has no plan item or no turn end")
	}
	end := len(bytes.Join(bytes.SplitAfter(data, []byte("\n"))[:first+1], nil))
	st := adaptertest.Fold(t, a, fi, data[:end], 0)
	want := []step{{"Add the /health handler", "pending"}, {"Test it", "pending"}, {"Note it in the changelog", "pending"}}
	for _, w := range want {
		if !strings.Contains(text, w.Text) {
			t.Fatalf("the plan item does not hold %q: %q", w.Text, text)
		}
	}
	if got := stepsOf(st.Lists[tally.ProposalList]); !reflect.DeepEqual(got, want) || st.Signal != tally.SignalAsking {
		t.Errorf("after the Plan-mode turn: proposal %v, signal %v; want %v, asking", got, st.Signal, want)
	}
	st = adaptertest.Fold(t, a, fi, data, 0)
	if got := stepsOf(st.Lists[tally.ProposalList]); len(got) != 0 || st.Signal != tally.SignalWaiting {
		t.Errorf("after the Default-mode turn: proposal %v, signal %v; want none, waiting", got, st.Signal)
	}
}
