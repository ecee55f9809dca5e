package codex

import (
	"bytes"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// Codex's Plan mode (a collaboration mode, /plan in its TUI) refuses
// update_plan and has the model propose a plan as text instead, between
// <proposed_plan> tags in its final answer. Codex parses the tags out of
// the stream into a plan item and keeps it in the rollout, even in legacy
// history mode (should_persist_event_msg, codex-rs/rollout/src/policy.rs):
//
//	{"timestamp":…,"type":"event_msg","payload":{"type":"item_completed",
//	 "thread_id":…,"turn_id":…,"item":{"type":"Plan","id":…,"text":"# …"}}}
//
// The plan then waits for the user: the TUI asks whether to implement it,
// and a yes starts a new turn in Default mode ("Implement the plan."). So a
// proposal is shown as its own list (tally.ProposalList), apart from the
// execution list, and the session asks its user (SignalAsking) from the
// end of the turn that proposed it until a turn starts outside Plan mode
// (its turn_context's collaboration_mode is not "plan"), which settles it
// and clears the list. A turn started in Plan mode again is the user
// revising it: the next proposal replaces it.

// proposalName is the proposal's list name on every surface.
const proposalName = "Plan proposed, awaiting approval"

// maxProposalSteps bounds the steps read from a proposed plan's text.
const maxProposalSteps = 50

// planModeLine tells a rollout line the plan mode needs from its head: a
// plan item completed, or, while a proposal waits, a turn's context.
func (d *decoder) planModeLine(line []byte) bool {
	head := line[:min(len(line), headLen)]
	p := indexY(head, payloadKey)
	if p < 0 {
		return false
	}
	t := indexY(head[:p], typeKey)
	if t < 0 {
		return false
	}
	typ := head[t+len(typeKey) : p]
	body := head[p+len(payloadKey):]
	switch {
	case bytes.HasPrefix(typ, []byte(`event_msg"`)):
		return bytes.HasPrefix(body, []byte(`{"type":"item_completed"`)) && bytes.Contains(body, []byte(`"type":"Plan"`))
	case bytes.HasPrefix(typ, []byte(`turn_context"`)):
		return d.st.Proposed
	}
	return false
}

// planModeItem handles a line planModeLine selected.
func (d *decoder) planModeItem(v *fastjson.Value, at time.Time, emit func(tally.Event)) {
	p := v.Get("payload")
	switch string(v.GetStringBytes("type")) {
	case "event_msg":
		item := p.Get("item")
		if string(item.GetStringBytes("type")) != "Plan" {
			return
		}
		steps := proposalSteps(string(item.GetStringBytes("text")))
		if len(steps) == 0 {
			return
		}
		d.st.Proposed = true
		emit(tally.Event{Kind: tally.EventMeta, List: tally.ProposalList, At: at, Meta: tally.Meta{Name: proposalName}})
		emit(tally.Event{Kind: tally.EventSnapshot, List: tally.ProposalList, ToolUseID: string(item.GetStringBytes("id")), At: at, Items: steps})
	case "turn_context":
		if string(p.GetStringBytes("collaboration_mode", "mode")) == "plan" {
			return
		}
		d.st.Proposed = false
		emit(tally.Event{Kind: tally.EventSnapshot, List: tally.ProposalList, At: at})
	}
}

// proposalSteps reads a proposed plan's steps from its Markdown: the items
// of its outermost lists ("- …", "* …", "1. …", a checkbox "- [x] …" done),
// else its headings below the title, else its first line. Every step is
// pending but a checked one: nothing of it has run.
func proposalSteps(text string) []tally.Item {
	var list, heads []tally.Item
	indent := -1
	title := true
	for raw := range strings.SplitSeq(text, "\n") {
		line := strings.TrimRight(raw, " \t\r")
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" {
			continue
		}
		if h, ok := heading(trimmed); ok {
			if !title {
				heads = append(heads, proposalStep(h, false))
			}
			title = false
			continue
		}
		title = false
		s, done, ok := listItem(trimmed)
		if !ok {
			continue
		}
		in := len(line) - len(trimmed)
		if indent < 0 || in < indent {
			indent = in
		}
		if in == indent {
			list = append(list, proposalStep(s, done))
		}
	}
	steps := list
	if len(steps) == 0 {
		steps = heads
	}
	if len(steps) == 0 {
		if first, _, _ := strings.Cut(strings.TrimSpace(text), "\n"); first != "" {
			steps = []tally.Item{proposalStep(strings.TrimLeft(first, "# "), false)}
		}
	}
	return steps[:min(len(steps), maxProposalSteps)]
}

func proposalStep(text string, done bool) tally.Item {
	it := tally.Item{Title: strings.TrimSpace(text), Status: tally.StatusPending, Source: tally.SourceTodo}
	if done {
		it.Status = tally.StatusCompleted
	}
	return it
}

func heading(s string) (string, bool) {
	t := strings.TrimLeft(s, "#")
	if len(t) == len(s) || !strings.HasPrefix(t, " ") {
		return "", false
	}
	return strings.TrimSpace(t), true
}

// listItem reads a Markdown list item: its text, and whether it is a
// checked box.
func listItem(s string) (string, bool, bool) {
	var rest string
	switch {
	case strings.HasPrefix(s, "- "), strings.HasPrefix(s, "* "), strings.HasPrefix(s, "+ "):
		rest = s[2:]
	default:
		i := 0
		for i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i+1 >= len(s) || (s[i] != '.' && s[i] != ')') || s[i+1] != ' ' {
			return "", false, false
		}
		rest = s[i+2:]
	}
	rest = strings.TrimSpace(rest)
	done := false
	switch {
	case strings.HasPrefix(rest, "[x] "), strings.HasPrefix(rest, "[X] "):
		done, rest = true, rest[4:]
	case strings.HasPrefix(rest, "[ ] "):
		rest = rest[4:]
	}
	if rest = strings.TrimSpace(rest); rest == "" {
		return "", false, false
	}
	return rest, done, true
}
