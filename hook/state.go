package hook

import (
	"hash/fnv"
	"time"

	"github.com/tallyhq/tally"
)

// ListKind says whose list a List is.
type ListKind uint8

const (
	// ListOwn is the agent's own list (TodoWrite, Task*, update_plan, …),
	// folded from its transcript.
	ListOwn ListKind = iota
	// ListTally is the session's list in Tally's store, kept through
	// Tally's MCP task tools.
	ListTally
)

// List is one list of a session.
type List struct {
	Kind ListKind
	// Name is the Tally list's name; empty for the agent's own list.
	Name  string
	Items []tally.Item
}

// Session is what Decide knows of the session at the call.
type Session struct {
	Lists []List
	// NewTurns counts the assistant turns (model calls) since the previous
	// call of a hook of this session.
	NewTurns int
}

// State is what the hooks of one session remember between calls, each
// call being a process of its own. It is small and bounded: Blocks holds
// at most Options.StopBlocks times, the rest are scalars.
type State struct {
	// Blocks are the times the stop guard refused a stop, the newest last,
	// within the window.
	Blocks []time.Time `json:"blocks,omitempty"`
	// Fingerprint identifies the lists' items and statuses at the last
	// call: a change is a list update.
	Fingerprint uint64 `json:"fingerprint,omitempty,string"`
	// Turns counts assistant turns since the lists last changed.
	Turns int `json:"turns,omitempty"`
	// SinceReminder counts assistant turns since the last reminder.
	SinceReminder int `json:"sinceReminder,omitempty"`
	// Completed is how many of the agent's own items were completed at the
	// last call.
	Completed int `json:"completed,omitempty"`
	// Nudged: the verification nudge was given for the current list.
	Nudged bool `json:"nudged,omitempty"`
	// Compactions counts the compactions of the session's context the
	// hooks saw: what was given to the context before one is gone (unless
	// it was still unsent). What is given back is remembered with this
	// count, so each is given once per session and compaction.
	Compactions int `json:"compactions,omitempty"`
	// Injected is the Fingerprint of the lists the model was last given
	// back (compaction or resume), at compaction GivenAt; 0 since a new
	// context (startup, clear).
	Injected uint64 `json:"injected,omitempty,string"`
	GivenAt  int    `json:"givenAt,omitempty"`
	// Owed is why the lists are owed to the model, "" when they are not:
	// SourceCompact after a compaction announced before it happened
	// (PreCompact), SourceResume after a resume whose lists are given back
	// later (Options.ResumeLater). The next call that can add context (a
	// prompt, a tool's result) gives them back.
	Owed Source `json:"owed,omitempty"`
	// Protocol: the plan protocol was given to the model, at compaction
	// ProtocolAt; false since a new context (startup, clear).
	Protocol   bool `json:"protocol,omitempty"`
	ProtocolAt int  `json:"protocolAt,omitempty"`
	// UnsentLists, UnsentProtocol: the lists, the protocol were given and
	// no model turn has carried them yet. A compaction then keeps them
	// (Claude Code 2.1.330 preserves the messages after the last model
	// turn), so they are not given again.
	UnsentLists    bool `json:"unsentLists,omitempty"`
	UnsentProtocol bool `json:"unsentProtocol,omitempty"`
	// UnsentPlan: where the plan stands (Options.Plan) was given and no
	// model turn has carried it yet; without a turn the plan has not moved.
	UnsentPlan bool `json:"unsentPlan,omitempty"`
	// Unavailable is set by a caller that could not read the saved state.
	// Decide then gives only the answers that need no memory
	// (re-injection, needs-input): never a block or a reminder it could
	// not count.
	Unavailable bool `json:"-"`
}

// observe brings the counters up to date with the session.
func (st *State) observe(s Session) {
	fp := fingerprint(s.Lists)
	if fp != st.Fingerprint {
		st.Fingerprint, st.Turns = fp, 0
	} else {
		st.Turns += s.NewTurns
	}
	st.SinceReminder += s.NewTurns
	if s.NewTurns > 0 {
		st.UnsentLists, st.UnsentProtocol, st.UnsentPlan = false, false, false
	}
}

// fingerprint hashes what a list update changes: which items there are and
// where each stands.
func fingerprint(lists []List) uint64 {
	h := fnv.New64a()
	for _, l := range lists {
		h.Write([]byte{byte(l.Kind), 0})
		h.Write([]byte(l.Name))
		for _, it := range l.Items {
			h.Write([]byte{0})
			h.Write([]byte(it.ID))
			h.Write([]byte{0})
			h.Write([]byte(it.Title))
			h.Write([]byte{0, byte(it.Status)})
			h.Write([]byte(it.RawStatus))
		}
		h.Write([]byte{1})
	}
	return h.Sum64()
}
