package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Format is an agent's hook wire format: the JSON a hook reads on stdin
// and the JSON it answers with.
type Format interface {
	Parse(payload []byte) (Event, error)
	// Encode is the answer's bytes; nil when the answer is empty, since
	// a hook that prints nothing changes nothing.
	Encode(ev Event, a Answer) []byte
}

// MaxPayload bounds the payload read from stdin. PostToolUse carries the
// tool's input and output, which can be large; past this the call is
// refused rather than held in memory.
const MaxPayload = 32 << 20

// ReadPayload reads a payload of at most MaxPayload bytes.
func ReadPayload(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxPayload+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxPayload {
		return nil, fmt.Errorf("hook payload is over %d bytes", MaxPayload)
	}
	return b, nil
}

// ClaudeFormat is Claude Code's hook format (and Codex's, which takes and
// gives the same JSON): snake_case input with hook_event_name; output with
// hookSpecificOutput.additionalContext, or decision "block" with a reason.
type ClaudeFormat struct{}

type claudeInput struct {
	SessionID            string          `json:"session_id"`
	TranscriptPath       string          `json:"transcript_path"`
	Cwd                  string          `json:"cwd"`
	HookEventName        string          `json:"hook_event_name"`
	Source               string          `json:"source"`
	StopHookActive       bool            `json:"stop_hook_active"`
	LastAssistantMessage string          `json:"last_assistant_message"`
	NotificationType     string          `json:"notification_type"`
	PermissionMode       string          `json:"permission_mode"`
	AgentID              string          `json:"agent_id"`
	ToolName             string          `json:"tool_name"`
	ToolUseID            string          `json:"tool_use_id"`
	ToolInput            json.RawMessage `json:"tool_input"`
	ToolResponse         json.RawMessage `json:"tool_response"`
	Suggestions          json.RawMessage `json:"permission_suggestions"`
}

// Parse reads a payload. It needs a JSON object with hook_event_name and
// session_id; every other field is optional, and unknown ones are ignored.
func (ClaudeFormat) Parse(payload []byte) (Event, error) {
	var in claudeInput
	if err := json.Unmarshal(payload, &in); err != nil {
		return Event{}, fmt.Errorf("hook payload is not a JSON object of the documented shape: %w", err)
	}
	if in.HookEventName == "" || in.SessionID == "" {
		return Event{}, errors.New("hook payload has no hook_event_name or no session_id")
	}
	return Event{
		Name: EventName(in.HookEventName), SessionID: in.SessionID, TranscriptPath: in.TranscriptPath, Cwd: in.Cwd,
		Source: Source(in.Source), StopHookActive: in.StopHookActive, LastAssistantMessage: in.LastAssistantMessage,
		NotificationType: NotificationType(in.NotificationType), PermissionMode: in.PermissionMode,
		AgentID: in.AgentID, ToolName: in.ToolName, ToolUseID: in.ToolUseID, ToolInput: in.ToolInput, ToolResponse: in.ToolResponse,
		Suggestions: in.Suggestions,
	}, nil
}

type claudeOutput struct {
	Decision string          `json:"decision,omitempty"`
	Reason   string          `json:"reason,omitempty"`
	Specific *claudeSpecific `json:"hookSpecificOutput,omitempty"`
}

type claudeSpecific struct {
	HookEventName     EventName `json:"hookEventName"`
	AdditionalContext string    `json:"additionalContext"`
}

// Encode writes a block as {"decision":"block","reason":…} and context as
// {"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}.
func (ClaudeFormat) Encode(ev Event, a Answer) []byte {
	if ev.Name == PermissionRequest {
		return encodePermission(ev, a.Permission)
	}
	var out claudeOutput
	switch {
	case a.Block != "":
		out.Decision, out.Reason = "block", a.Block
	case a.Context != "":
		out.Specific = &claudeSpecific{HookEventName: ev.Name, AdditionalContext: a.Context}
	default:
		return nil
	}
	b, _ := json.Marshal(out) // strings only
	return append(b, '\n')
}
