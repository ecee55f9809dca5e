package codex

import (
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// rolloutLine handles a selected rollout line: {timestamp, type, payload}.
// Early rollouts (mid-2025) wrote response items bare, without the
// envelope; those are read as response items with no time.
func (d *decoder) rolloutLine(v *fastjson.Value, emit func(tally.Event)) error {
	at := stamp(v)
	top := string(v.GetStringBytes("type"))
	item := v.Get("payload")
	if item == nil {
		item, top = v, "response_item"
	}
	if item.Type() != fastjson.TypeObject {
		return invalid("%s line: payload is not an object", top)
	}
	switch top {
	case "session_meta":
		return d.sessionMeta(item, at, emit)
	case "response_item":
		return d.responseItem(item, at, emit)
	}
	// Anything else (compacted history, event_msg, …) can hold the needles
	// inside copies of older items; the plan lives only in response items.
	return nil
}

func (d *decoder) sessionMeta(p *fastjson.Value, at time.Time, emit func(tally.Event)) error {
	id := string(p.GetStringBytes("id"))
	if id == "" {
		id = string(p.GetStringBytes("session_id"))
	}
	if d.session != "" && id != "" && id != d.session {
		// Another thread's meta (a fork copies its parent's history):
		// the file name says whose file this is.
		return nil
	}
	if t := stamp(p); !t.IsZero() {
		at = t // when the session started, a little before the line was written
	}
	m := listTools(string(p.GetStringBytes("cli_version")), d.planTool)
	m.Project = string(p.GetStringBytes("cwd"))
	if d.session == "" {
		m.SessionID = id
	}
	emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: m})
	return nil
}

func (d *decoder) responseItem(item *fastjson.Value, at time.Time, emit func(tally.Event)) error {
	switch string(item.GetStringBytes("type")) {
	case "function_call":
		if string(item.GetStringBytes("name")) == "update_plan" {
			return d.planCall(item)
		}
	case "function_call_output":
		return d.planOutput(item, at, emit)
	case "message":
		switch string(item.GetStringBytes("role")) {
		case "user":
			if !d.st.Titled {
				d.title(item, at, emit)
			}
		case "assistant":
			d.markers(item, at, emit)
		}
	}
	return nil
}

// markers reads the progress markers of an assistant message's output
// text. Codex also copies the text into an agent_message event; only the
// response item is read, so each marker is read once.
func (d *decoder) markers(item *fastjson.Value, at time.Time, emit func(tally.Event)) {
	var found []tally.Marker
	for _, c := range item.GetArray("content") {
		if string(c.GetStringBytes("type")) == "output_text" {
			found = marker.Append(found, c.GetStringBytes("text"), d.off, at)
		}
	}
	for _, m := range found {
		emit(tally.Event{Kind: tally.EventMarker, At: at, Marker: m})
	}
}

// planCall holds an update_plan call until Codex answers it.
func (d *decoder) planCall(item *fastjson.Value) error {
	id := string(item.GetStringBytes("call_id"))
	if id == "" {
		return invalid("update_plan call without call_id")
	}
	args := item.Get("arguments")
	if args == nil || args.Type() != fastjson.TypeString {
		return invalid("update_plan call %s: arguments is not a JSON string", id)
	}
	items, ok := d.parsePlan(args.GetStringBytes())
	if !ok {
		// Codex cannot parse it either and will answer with an error:
		// the plan does not change, and the line itself is sound.
		return nil
	}
	d.hold(pendingPlan{CallID: id, Items: items})
	return nil
}

// parsePlan reads UpdatePlanArgs {explanation?, plan: [{step, status}]}.
// The explanation is dropped: no field of the model holds it.
func (d *decoder) parsePlan(b []byte) ([]tally.Item, bool) {
	v, err := d.args.ParseBytes(b)
	if err != nil {
		return nil, false
	}
	plan := v.Get("plan")
	if plan == nil || plan.Type() != fastjson.TypeArray {
		return nil, false
	}
	arr := plan.GetArray()
	items := make([]tally.Item, 0, len(arr))
	for _, e := range arr {
		step, status := e.Get("step"), e.Get("status")
		if step == nil || status == nil || step.Type() != fastjson.TypeString || status.Type() != fastjson.TypeString {
			return nil, false
		}
		it := tally.Item{Title: string(step.GetStringBytes()), Source: tally.SourceTodo}
		it.Status, it.RawStatus = tally.StatusOf(string(status.GetStringBytes()))
		items = append(items, it)
	}
	return items, true
}

// planOutput applies a held plan if Codex accepted it.
func (d *decoder) planOutput(item *fastjson.Value, at time.Time, emit func(tally.Event)) error {
	id := string(item.GetStringBytes("call_id"))
	p, ok := d.release(id)
	if !ok {
		return nil
	}
	switch verdictOf(item.Get("output")) {
	case accepted:
		emit(tally.Event{Kind: tally.EventSnapshot, ToolUseID: id, At: at, Items: p.Items})
	case rejected:
	case unknownVerdict:
		return invalid("update_plan call %s: output not understood, plan not applied (a new Codex wording?)", id)
	}
	return nil
}

// title makes a weak title of the first real user message. Codex also
// sends context as user messages (<environment_context>, AGENTS.md); those
// are skipped.
func (d *decoder) title(item *fastjson.Value, at time.Time, emit func(tally.Event)) {
	for _, c := range item.GetArray("content") {
		t := titleOf(string(c.GetStringBytes("text")))
		if t == "" {
			continue
		}
		d.st.Titled = true
		emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: tally.Meta{Title: t, TitleWeak: true}})
		return
	}
}

func titleOf(text string) string {
	text = strings.TrimSpace(text)
	if text == "" || strings.HasPrefix(text, "<") || strings.HasPrefix(text, "# AGENTS.md") {
		return ""
	}
	return tally.PromptTitle(text)
}
