package hook

import (
	"bytes"
	"encoding/json"
)

// Claude Code's answer to a PermissionRequest hook (checked with 2.1.330):
//
//	{"hookSpecificOutput":{"hookEventName":"PermissionRequest",
//	  "decision":{"behavior":"allow"}}}
//
// allows the call; with "updatedPermissions" (rules of the call's own
// permission_suggestions whose destination is "session") it also allows
// the same for the rest of the session; "behavior":"deny" with "message"
// refuses it, and the model gets the message as the tool's error result.
// ExitPlanMode's approval needs "updatedInput", the tool's input as given.
// No output leaves the agent to its own prompt.
type permissionOutput struct {
	Specific permissionSpecific `json:"hookSpecificOutput"`
}

type permissionSpecific struct {
	HookEventName EventName          `json:"hookEventName"`
	Decision      permissionDecision `json:"decision"`
}

type permissionDecision struct {
	Behavior           string            `json:"behavior"`
	Message            string            `json:"message,omitempty"`
	UpdatedInput       json.RawMessage   `json:"updatedInput,omitempty"`
	UpdatedPermissions []json.RawMessage `json:"updatedPermissions,omitempty"`
}

// ExitPlanMode is Claude Code's tool that asks the user to approve a plan.
const ExitPlanMode = "ExitPlanMode"

func encodePermission(ev Event, p *Permission) []byte {
	if p == nil {
		return nil
	}
	d := permissionDecision{Behavior: "deny", Message: p.Message}
	switch p.Verdict {
	case "allow", "always":
		d = permissionDecision{Behavior: "allow"}
		if ev.ToolName == ExitPlanMode && isObject(ev.ToolInput) {
			d.UpdatedInput = ev.ToolInput
		}
		if p.Verdict == "always" {
			d.UpdatedPermissions = SessionSuggestions(ev.Suggestions)
		}
	case "deny":
	default:
		return nil // nothing is ever allowed by default
	}
	b, err := json.Marshal(permissionOutput{Specific: permissionSpecific{HookEventName: PermissionRequest, Decision: d}})
	if err != nil {
		return nil
	}
	return append(b, '\n')
}

// SessionSuggestions are the rules of a call's permission_suggestions
// that last the session only (destination "session"): what "allow
// always" gives back, never a rule written to a settings file.
func SessionSuggestions(raw json.RawMessage) []json.RawMessage {
	var all []json.RawMessage
	if json.Unmarshal(raw, &all) != nil {
		return nil
	}
	var out []json.RawMessage
	for _, s := range all {
		var head struct {
			Destination string `json:"destination"`
		}
		if json.Unmarshal(s, &head) == nil && head.Destination == "session" && isObject(s) {
			out = append(out, s)
		}
	}
	return out
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}
