package hookservice

import (
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/hook"
)

// teller is an adapter that knows the events of a tool call from what a
// PostToolUse hook is told of it (claude.Adapter.Told): the events its
// transcript's lines will give once written.
type teller interface {
	Told(tool, toolUseID string, input, response json.RawMessage, at time.Time) ([]tally.Event, error)
}

// maxTold bounds the told events the hooks remember: each is forgotten as
// soon as the transcript holds its call, a few calls later at most.
const maxTold = 32

// toldEvents are the list events of the call a PostToolUse reports, for
// an agent whose adapter reads them (nil otherwise).
func toldEvents(ag Agent, ev hook.Event, at time.Time, log *logger) []tally.Event {
	t, ok := ag.Adapter.(teller)
	if !ok || ev.Name != hook.PostToolUse || ev.ToolUseID == "" || len(ev.ToolInput) == 0 {
		return nil
	}
	evs, err := t.Told(ev.ToolName, ev.ToolUseID, ev.ToolInput, ev.ToolResponse, at)
	if err != nil {
		log.printf("the %s call the hook was told of is not read: %v", ev.ToolName, err)
		return nil
	}
	return evs
}

// withTold is the session with its own list as the transcript's fold
// holds it (own, nil when there is none) and, on top, the calls the hooks
// were told of that the transcript does not hold yet: Claude Code 2.1.330
// runs its hooks before it writes a call to the transcript, so a Stop
// right after a TodoWrite may find the transcript without it. It returns
// the told events still to remember: those the transcript's list has not
// seen, the newest maxTold.
func withTold(s hook.Session, own *tally.List, told []tally.Event) (hook.Session, []tally.Event) {
	if len(told) == 0 {
		return s, nil
	}
	var l tally.List
	if own != nil {
		b, err := json.Marshal(own)
		if err == nil {
			err = json.Unmarshal(b, &l)
		}
		if err != nil {
			return s, nil
		}
	}
	var kept []tally.Event
	for _, ev := range told {
		if own != nil && own.Saw(ev) {
			continue
		}
		l.Apply(ev)
		kept = append(kept, ev)
	}
	if len(kept) > maxTold {
		kept = kept[len(kept)-maxTold:]
	}
	if len(kept) == 0 {
		return s, nil
	}
	lists := []hook.List{}
	if l.Len() > 0 {
		lists = append(lists, hook.List{Kind: hook.ListOwn, Items: l.Items()})
	}
	for _, x := range s.Lists {
		if x.Kind != hook.ListOwn {
			lists = append(lists, x)
		}
	}
	s.Lists = lists
	return s, kept
}
