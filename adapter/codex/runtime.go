package codex

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
)

// Runtime progress (package toolrun) of a session that may still be going:
// with a window of calls (CallsFrom) set, as the indexer sets it, each
// tool call of a rollout in the window (function_call, custom_tool_call,
// local_shell_call) is a running call of the runtime list, and its output
// (function_call_output, custom_tool_call_output, by call_id) finishes it,
// failed when Codex says the call failed or the command exited non-zero.
// Without a window (history, a test's fold) there is none, so a cold scan
// pays nothing for it. Only the envelope and the few fields a label needs
// are read, from the line's bytes.

// maxRunning bounds the calls held for their output.
const maxRunning = 64

var outputKinds = [][]byte{[]byte(`function_call_output"`), []byte(`custom_tool_call_output"`)}

// runtimeOf appends to evs the runtime events of a rollout line.
func (d *decoder) runtimeOf(line []byte, evs []tally.Event) []tally.Event {
	if d.callsFrom == "" {
		return evs
	}
	stamp, ok := bytes.CutPrefix(line, []byte(stampKey))
	if !ok {
		return evs
	}
	q := bytes.IndexByte(stamp, '"')
	if q < len(stampPrefix) || string(stamp[:len(stampPrefix)]) < d.callsFrom {
		return evs
	}
	at, _ := time.Parse(time.RFC3339Nano, string(stamp[:q]))
	head := line[:min(len(line), rolloutHead)]
	p := bytes.Index(head, []byte(itemPayload))
	if p < 0 {
		return evs
	}
	body := line[p+len(itemPayload):]
	typ, _, ok := jsonl.Field(body, "type")
	if !ok || len(typ) < 2 {
		return evs
	}
	emit := func(ev tally.Event) { evs = append(evs, ev) }
	for _, k := range outputKinds {
		if bytes.Equal(typ[1:], k) {
			id := unquote(field(body, "call_id"))
			if d.running(id) {
				toolrun.End(emit, id, failedOutput(field(body, "output")), at)
			}
			return evs
		}
	}
	for _, k := range callKinds {
		if string(typ[1:]) != k.typ {
			continue
		}
		id := unquote(field(body, "call_id"))
		name := unquote(field(body, "name"))
		var in toolrun.Input
		switch k.typ {
		case `local_shell_call"`:
			name = "local_shell"
		case `function_call"`:
			in = toolrun.InputOf([]byte(unquote(field(body, "arguments"))))
		case `custom_tool_call"`:
			in.Path = patchPath(unquote(field(body, "input")))
		}
		if id != "" {
			toolrun.Start(emit, id, name, in, at)
			d.holdRunning(id)
		}
		return evs
	}
	return evs
}

func field(body []byte, key string) []byte {
	v, _, _ := jsonl.Field(body, key)
	return v
}

// unquote is a JSON string's text, "" for anything else.
func unquote(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// patchPath is the first file an apply_patch input names.
func patchPath(patch string) string {
	for _, mark := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
		if i := bytesIndex(patch, mark); i >= 0 {
			rest := patch[i+len(mark):]
			if j := bytesIndex(rest, "\n"); j >= 0 {
				rest = rest[:j]
			}
			return rest
		}
	}
	return ""
}

func bytesIndex(s, sub string) int { return bytes.Index([]byte(s), []byte(sub)) }

// failedOutput tells an output that says the call failed: a command that
// exited non-zero ("Exit code: 1", "Process exited with code 2"), or
// Codex refusing the call.
func failedOutput(raw []byte) bool {
	s := unquote(raw)
	if s == "" && len(raw) > 0 && raw[0] == '{' {
		var o struct {
			Success *bool  `json:"success"`
			Content string `json:"content"`
		}
		if json.Unmarshal(raw, &o) == nil {
			if o.Success != nil && !*o.Success {
				return true
			}
			s = o.Content
		}
	}
	for _, mark := range []string{"Exit code: ", "exited with code "} {
		if i := bytesIndex(s, mark); i >= 0 {
			rest := s[i+len(mark):]
			return len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9' && !(rest[0] == '0' && (len(rest) == 1 || rest[1] < '0' || rest[1] > '9'))
		}
	}
	for _, r := range rejectedText {
		if bytesIndex(s, r) >= 0 {
			return true
		}
	}
	return false
}

// holdRunning holds call id for its output, the oldest let go past maxRunning.
func (d *decoder) holdRunning(id string) {
	for _, r := range d.st.Running {
		if r == id {
			return
		}
	}
	if len(d.st.Running) >= maxRunning {
		d.st.Running = append(d.st.Running[:0], d.st.Running[1:]...)
	}
	d.st.Running = append(d.st.Running, id)
}

// running tells, and forgets, a call held for its output.
func (d *decoder) running(id string) bool {
	for i, r := range d.st.Running {
		if r == id {
			d.st.Running = append(d.st.Running[:i], d.st.Running[i+1:]...)
			return true
		}
	}
	return false
}
