package hermes

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/tallyhq/tally/marker"
)

// wireMessage is one chat message as Hermes writes it in its session logs
// and returns from get_messages_as_conversation: OpenAI chat format, plus
// the state.db columns tool_name, timestamp and session_id when present.
type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  json.RawMessage `json:"tool_calls"`
	ToolName   string          `json:"tool_name"`
	Timestamp  float64         `json:"timestamp"`
	SessionID  string          `json:"session_id"`
}

var errNotMessage = errors.New("not a chat message: no role")

// decodeMessage reads one wire message; at is used when it has no
// timestamp of its own.
func decodeMessage(raw []byte, at time.Time) (message, wireMessage, error) {
	var w wireMessage
	if err := json.Unmarshal(raw, &w); err != nil {
		return message{}, w, err
	}
	if w.Role == "" {
		return message{}, w, errNotMessage
	}
	m := message{role: w.Role, callID: w.ToolCallID, at: at, notUTF8: !utf8.Valid(raw)}
	if t := unixTime(w.Timestamp); !t.IsZero() {
		m.at = t
	}
	calls := bytes.TrimSpace(w.ToolCalls)
	m.hasCalls = len(calls) > 0 && string(calls) != "null" && string(calls) != "[]"
	switch w.Role {
	case "assistant":
		if marker.Maybe(w.Content) {
			m.markers = marker.Append(nil, unwrapString(w.Content), 0, m.at)
		}
		if m.hasCalls {
			var err error
			if m.calls, m.fps, err = todoCalls(unwrapString(calls)); err != nil {
				return message{}, w, err
			}
		}
	case "tool":
		m.content = unwrapString(w.Content)
	}
	return m, w, nil
}
