package tally

import (
	"bytes"
	"time"
)

// EventKind says what an Event does to a list or a session.
type EventKind uint8

const (
	// EventSnapshot replaces every SourceTodo item of the list with Items
	// (TodoWrite, write_todos, update_plan, ACP plan, …). An empty snapshot
	// clears the list.
	EventSnapshot EventKind = iota + 1
	// EventTaskCreate adds one SourceTask item, Patch describing it. Its ID
	// is often unknown yet: it arrives with EventTaskAssign, linked by
	// ToolUseID.
	EventTaskCreate
	// EventTaskAssign gives the task created by call ToolUseID its ID.
	EventTaskAssign
	// EventTaskUpdate edits the task Patch.ID; Patch.Deleted removes it.
	EventTaskUpdate
	// EventTaskResync replaces the SourceTask items with Items, a full
	// snapshot the agent reported (Claude's TaskList result).
	EventTaskResync
	// EventMerge updates items by ID and appends unknown IDs (Hermes
	// merge=true). Empty fields of an Item in Items are left unchanged.
	EventMerge
	// EventMeta carries session facts: Meta fields that are set overwrite.
	EventMeta
	// EventMarker is a progress marker found in message text
	// ("progress: T001.S1 done", see package marker).
	EventMarker
	// EventToolCall is a tool call the agent made: Call is its fingerprint
	// (its name and arguments hashed, see package detect). It changes no
	// list; it is what tells an agent calling the same thing again and
	// again.
	EventToolCall
	// EventCallFailed says the tool call ToolUseID failed: its result is
	// an error (a call the agent's tool rejected, InputValidationError),
	// so it changed nothing, and the list takes back what the call's
	// events did. The agent's own record is the truth: a call counts once
	// its result says it succeeded.
	EventCallFailed
	// EventCallSucceeded says the tool call ToolUseID succeeded: the list
	// forgets how to take it back.
	EventCallSucceeded
)

// Signal is what the last line said about the agent's turn; Activity is
// derived from it and the time since.
type Signal uint8

const (
	SignalNone Signal = iota
	// SignalWorking: a prompt was sent, a tool was called or answered.
	SignalWorking
	// SignalWaiting: the assistant ended its turn, or asked for permission:
	// the next move is the user's.
	SignalWaiting
	// SignalEnded: the log says the session is over.
	SignalEnded
	// SignalAsking: the agent asked its user something and waits for the
	// answer — a permission prompt, a question that ends its turn, a hook's
	// notification that it needs its user. Like SignalWaiting the next move
	// is the user's, but the agent said so.
	SignalAsking
)

// TurnEnd tells a signal that hands the turn to the user: waiting or
// asking.
func (s Signal) TurnEnd() bool { return s == SignalWaiting || s == SignalAsking }

// Asks tells a reply that ends its turn with a question for the user, which
// an adapter reports as SignalAsking: its last character, spaces, closing
// quotes and markdown emphasis aside, is a question mark (or the
// full-width one). A question answered in the same reply does not count.
func Asks(reply []byte) bool {
	t := bytes.TrimRight(reply, " \t\r\n\"')*_`")
	return bytes.HasSuffix(t, []byte("?")) || bytes.HasSuffix(t, []byte("？"))
}

// RuntimeList is the list key of runtime progress: tool calls as the
// agent's runtime reports them (ACP tool_call / tool_call_update). It is
// kept apart from the model's own plan because it is another thing: what
// the runtime ran, not what the model meant to do, and a long run of tool
// calls must not push the plan out of sight.
const RuntimeList = "runtime"

// ProposalList is the list key of a plan the agent proposed and its user
// has not approved yet (Codex's Plan mode): the approval layer, kept apart
// from the list the agent executes, and gone once the plan is settled.
const ProposalList = "proposal"

// Event is what an adapter makes of a line. Adapters emit events; the fold
// (FileState.Apply) is the only code that changes state.
type Event struct {
	Kind EventKind
	// List names the list within the session: "" for the main agent, the
	// sub-agent's id otherwise.
	List string
	// ToolUseID identifies the tool call the event came from. An event of
	// the same kind and ToolUseID as one of the newest the list applied
	// (List.Seen) is a no-op, and a TaskCreate whose call already made a
	// task of the list is one however old: a line written twice changes
	// nothing.
	ToolUseID string
	At        time.Time
	Items     []Item
	Patch     TaskPatch
	Meta      Meta
	Marker    Marker
	// Repair says what the adapter had to repair in its input to make
	// this event ("" if nothing), for a parser that repairs on its own
	// (encoding/json turns invalid UTF-8 into U+FFFD): the fold counts
	// and reports it as it does its own repairs.
	Repair string
	// Call is an EventToolCall's fingerprint.
	Call uint64
	// Pending, on a snapshot or a task update, says the call's result is
	// still to come and the adapter will report it (EventCallFailed or
	// EventCallSucceeded): until then the list keeps what taking the call
	// back needs. The call is shown at once — the result follows within
	// moments, and a hook called in between must see it — and taken back
	// if it failed.
	Pending bool
}

// TaskPatch is a TaskCreate or TaskUpdate: nil fields are not changed.
type TaskPatch struct {
	ID           string
	Subject      *string
	Description  *string
	ActiveForm   *string
	Owner        *string
	Status       *Status
	RawStatus    string
	Deleted      bool
	AddBlocks    []string
	AddBlockedBy []string
}

// Meta is what a log says about its session. Zero fields say nothing.
type Meta struct {
	SessionID string
	Project   string
	Title     string
	// TitleWeak marks a title guessed from the first prompt: a real title
	// (ai-title, summary) replaces it, it never replaces a real one.
	TitleWeak bool
	Signal    Signal
	// TurnOver says a SignalWaiting or SignalAsking is the agent's own
	// word that its turn is over: Claude Code's stop_reason end_turn,
	// Codex's task_complete, an ACP prompt's stopReason, a request for
	// permission. Without it a turn end is tentative — Gemini CLI writes
	// a reply first and adds its tool calls in a second write — and
	// counts only once TurnGrace has passed with nothing new (see
	// Record.SignalAt).
	TurnOver bool
	// Name names the list the event's List says (a sub-agent's own
	// description, "Audit string helpers"), for surfaces to show instead
	// of its id. It is ignored for the main list.
	Name string
	// ListTools is what the log says of the agent's list tools; with
	// ListToolsNone, ListToolsHint says how to give it one (the agent's
	// own setting), in a sentence a person can act on.
	ListTools     ListTools
	ListToolsHint string
	// Stalled: the agent's runtime said the session stalled (OpenClaw's
	// watchdog, a run that timed out idle). Detection flags it stalled
	// from then on, until work follows.
	Stalled bool
}

// Marker is a progress marker in an agent's text: "progress: T001.S1 done".
//
// A line meant as a marker that is not one ("progress: T001.S1 finished")
// is kept too, so a person can see why the plan did not move: Line holds
// it as written, Reason says what is wrong with it, and Task, Step and
// Verb are empty (Unrecognised).
type Marker struct {
	Task   string `json:"task"`
	Step   string `json:"step,omitempty"`
	Verb   string `json:"verb"`
	Reason string `json:"reason,omitempty"`
	// Line is the line of an unrecognised marker, as written.
	Line string `json:"line,omitempty"`
	// Offset is the byte offset of the log line the marker was read from
	// (for a message an agent writes again, the line it was first written
	// on), and Index its place among that line's markers: with the session
	// and the file's list they tell one marker from every other, however
	// often the line is read. At is when the line was written.
	Offset int64     `json:"offset,omitempty"`
	Index  int       `json:"index,omitempty"`
	At     time.Time `json:"at,omitzero"`
}

// Unrecognised tells a line meant as a marker that is not one.
func (m Marker) Unrecognised() bool { return m.Line != "" }
