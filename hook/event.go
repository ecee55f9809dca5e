package hook

import "encoding/json"

// EventName is the point of an agent's life a hook call comes from, in
// Claude Code's names (Codex uses the same ones).
type EventName string

const (
	SessionStart     EventName = "SessionStart"
	Stop             EventName = "Stop"
	UserPromptSubmit EventName = "UserPromptSubmit"
	PostToolUse      EventName = "PostToolUse"
	Notification     EventName = "Notification"
	// PermissionRequest: the agent asks its user to allow a tool call
	// (Claude Code's permission dialog, or its plan's approval when the
	// tool is ExitPlanMode). Its answer allows or denies it (Permission);
	// no answer leaves the agent to ask in its own way.
	PermissionRequest EventName = "PermissionRequest"
	// PreCompact is a compaction announced before it happens, by an agent
	// that has no hook after one (Gemini CLI's PreCompress). Its Source
	// is SourceManual or SourceAuto.
	PreCompact EventName = "PreCompact"
)

// Source is why a session (re)started: SessionStart's source.
type Source string

const (
	SourceStartup Source = "startup"
	SourceResume  Source = "resume"
	SourceClear   Source = "clear"
	SourceCompact Source = "compact"
	// SourceManual: the user asked for the compaction (PreCompact).
	SourceManual Source = "manual"
	// SourceAuto: the agent may compact because its context is filling
	// up (PreCompact); it may also find no need to.
	SourceAuto Source = "auto"
)

// NotificationType is what a Notification is about.
type NotificationType string

const (
	// PermissionPrompt: the agent waits for the user to allow a tool.
	PermissionPrompt NotificationType = "permission_prompt"
	// IdlePrompt: the agent has waited for the user's input a while.
	IdlePrompt NotificationType = "idle_prompt"
)

// Event is one hook call, whatever agent made it.
type Event struct {
	Name           EventName
	SessionID      string
	TranscriptPath string
	Cwd            string
	// Source is set for SessionStart.
	Source Source
	// StopHookActive is set for Stop when the agent is already going on
	// because a stop hook refused its previous stop.
	StopHookActive bool
	// LastAssistantMessage is the text the agent stopped with (Stop).
	LastAssistantMessage string
	// NotificationType is set for Notification.
	NotificationType NotificationType
	PermissionMode   string
	// AgentID is set when the call comes from inside a sub-agent.
	AgentID  string
	ToolName string
	// ToolUseID, ToolInput and ToolResponse are the call a PostToolUse
	// reports (Claude Code's tool_use_id, tool_input, tool_response):
	// what the agent has not always written to its transcript yet.
	ToolUseID    string
	ToolInput    json.RawMessage
	ToolResponse json.RawMessage
	// Suggestions are the permission rules the agent offers to add when
	// a call is allowed (Claude Code's permission_suggestions), as sent;
	// ToolInput is also set for PermissionRequest.
	Suggestions json.RawMessage
}
