package hook

import (
	"encoding/json"
	"errors"
	"fmt"
)

// GeminiFormat is Gemini CLI's hook format (checked with 0.61.0): the
// same snake_case base fields as Claude Code's, under Gemini's own event
// names, which Parse maps to the rules' events:
//
//	SessionStart (source startup, resume, clear)  SessionStart
//	BeforeAgent (a prompt, before the model)      UserPromptSubmit
//	AfterTool                                     PostToolUse
//	AfterAgent (stop_hook_active, prompt_response) Stop
//	Notification (ToolPermission)                 Notification, permission_prompt
//	PreCompress (trigger manual or auto)          PreCompact
//
// Context is answered as hookSpecificOutput.additionalContext (Gemini adds
// it to the prompt, the tool's result, or the session's first turn); a
// refused stop as decision "deny" with the reason, which Gemini sends the
// model as its next prompt.
type GeminiFormat struct{}

// geminiEvents maps Gemini CLI's event names to the rules' events.
var geminiEvents = map[string]EventName{
	"SessionStart": SessionStart,
	"BeforeAgent":  UserPromptSubmit,
	"AfterTool":    PostToolUse,
	"AfterAgent":   Stop,
	"Notification": Notification,
	"PreCompress":  PreCompact,
}

// geminiToolPermission is the notification Gemini CLI sends while a tool
// call waits for the user's approval.
const geminiToolPermission = "ToolPermission"

type geminiInput struct {
	SessionID        string `json:"session_id"`
	TranscriptPath   string `json:"transcript_path"`
	Cwd              string `json:"cwd"`
	HookEventName    string `json:"hook_event_name"`
	Source           string `json:"source"`
	Trigger          string `json:"trigger"`
	StopHookActive   bool   `json:"stop_hook_active"`
	PromptResponse   string `json:"prompt_response"`
	NotificationType string `json:"notification_type"`
	ToolName         string `json:"tool_name"`
}

// Parse reads a payload. It needs a JSON object with hook_event_name and
// session_id; an event the rules do not answer keeps its Gemini name (and
// gets no answer).
func (GeminiFormat) Parse(payload []byte) (Event, error) {
	var in geminiInput
	if err := json.Unmarshal(payload, &in); err != nil {
		return Event{}, fmt.Errorf("hook payload is not a JSON object of the documented shape: %w", err)
	}
	if in.HookEventName == "" || in.SessionID == "" {
		return Event{}, errors.New("hook payload has no hook_event_name or no session_id")
	}
	name, ok := geminiEvents[in.HookEventName]
	if !ok {
		name = EventName(in.HookEventName)
	}
	ev := Event{
		Name: name, SessionID: in.SessionID, TranscriptPath: in.TranscriptPath, Cwd: in.Cwd,
		Source: Source(in.Source), StopHookActive: in.StopHookActive, LastAssistantMessage: in.PromptResponse,
		NotificationType: NotificationType(in.NotificationType), ToolName: in.ToolName,
	}
	if name == PreCompact {
		ev.Source = Source(in.Trigger)
	}
	if in.NotificationType == geminiToolPermission {
		ev.NotificationType = PermissionPrompt
	}
	return ev, nil
}

type geminiOutput struct {
	Decision string          `json:"decision,omitempty"`
	Reason   string          `json:"reason,omitempty"`
	Specific *claudeSpecific `json:"hookSpecificOutput,omitempty"`
}

// Encode writes a refused stop as {"decision":"deny","reason":…} and
// context as {"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}
// under Gemini's name of the event.
func (GeminiFormat) Encode(ev Event, a Answer) []byte {
	var out geminiOutput
	switch {
	case a.Block != "":
		out.Decision, out.Reason = "deny", a.Block
	case a.Context != "":
		out.Specific = &claudeSpecific{HookEventName: geminiName(ev.Name), AdditionalContext: a.Context}
	default:
		return nil
	}
	b, _ := json.Marshal(out) // strings only
	return append(b, '\n')
}

// geminiName is Gemini CLI's name of a rules' event.
func geminiName(e EventName) EventName {
	for g, n := range geminiEvents {
		if n == e {
			return EventName(g)
		}
	}
	return e
}
