package claude

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/tallyhq/tally"
)

// Told is the events of one tool call as a PostToolUse hook is told of it
// (its name, tool_use_id, tool_input and tool_response): the events the
// transcript's lines of that call give once they are written. Claude Code
// 2.1.330 runs its hooks before it writes the call to the transcript, so a
// hook that read only the transcript might not see the call it was told
// about; the lines are written here as Claude Code writes them and read by
// the decoder the transcript is read with, so both agree. A call of a
// tool the decoder does not read gives no event.
func (a *Adapter) Told(tool, toolUseID string, input, response json.RawMessage, at time.Time) ([]tally.Event, error) {
	if tool == "" || toolUseID == "" || !json.Valid(input) {
		return nil, errors.New("the told call has no tool, no tool_use_id or no JSON input")
	}
	if len(response) == 0 || !json.Valid(response) {
		response = json.RawMessage("null")
	}
	stamp := at.UTC().Format(time.RFC3339Nano)
	call, err := json.Marshal(map[string]any{"type": "assistant", "isSidechain": false, "timestamp": stamp,
		"message": map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": toolUseID, "name": tool, "input": input}}}})
	if err != nil {
		return nil, err
	}
	result, err := json.Marshal(map[string]any{"type": "user", "isSidechain": false, "timestamp": stamp,
		"message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": toolUseID, "content": ""}}},
		"toolUseResult": response})
	if err != nil {
		return nil, err
	}
	d, err := newDecoder(tally.FileInfo{}, nil)
	if err != nil {
		return nil, err
	}
	var evs []tally.Event
	emit := func(ev tally.Event) {
		switch ev.Kind {
		case tally.EventSnapshot, tally.EventTaskCreate, tally.EventTaskAssign, tally.EventTaskUpdate, tally.EventTaskResync, tally.EventMerge:
			if ev.List == "" {
				evs = append(evs, ev)
			}
		}
	}
	for _, line := range [][]byte{call, result} {
		if err := d.Line(line, 0, emit); err != nil {
			return nil, err
		}
	}
	return evs, nil
}
