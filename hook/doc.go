// Package hook keeps agents on track through the hooks they already run:
// after a compaction it gives the model back exactly its unfinished items,
// it can refuse a stop while unblocked work remains, it reminds a model
// that has not touched its list for many turns, nudges for a verification
// step when many items close without one, and marks a session that waits
// for its user.
//
// Decide is a pure function from one hook call (Event), what the session's
// lists hold (Session) and the little the hooks remember between calls
// (State) to the Answer. Everything that touches a file, the store or a
// clock is the caller's (package hookservice), so every rule here is
// tested with recorded payloads and nothing else.
//
// What it promises:
//   - In a project that keeps a plan, SessionStart gives the plan protocol
//     (Options.Protocol: how to plan into the plan folder and write
//     progress markers) at the start and whenever the context lost it
//     (compact, clear), before any list given back, with where the plan
//     stands (Options.Plan: "T001 S2 next"); a resumed session that has
//     it is not told again. Where there is no plan, a start gets nothing.
//   - Re-injection (SessionStart with source compact or resume) names only
//     unfinished items — in progress, pending, blocked with what blocks
//     them — of the agent's own list and of its Tally list, and says
//     nothing at all when nothing is unfinished. Completed items are
//     counted, never named: repeating them invites repeating the work. It
//     says to go on with the item in progress only when one is.
//   - Each is given once per session and compaction (State.Compactions):
//     not again to a context that holds it (a resume), nor at a compaction
//     that follows its giving before any model call (Claude Code keeps
//     what no request has carried yet through the compaction).
//   - An agent with no hook after a compaction announces it before
//     (PreCompact, Gemini CLI's PreCompress): one the user asked for
//     (SourceManual) gives the lists back, as a compaction would, at the
//     next call that can add context (a prompt or a tool's result), once.
//     An automatic one (SourceAuto) gives nothing back: Gemini CLI 0.61
//     announces one before every model call, whether it then compacts or
//     not, so such an announcement says nothing.
//   - With Options.ResumeLater (an agent that writes a resumed session's
//     record back only after its SessionStart hooks ran), a resume gives
//     the lists back at the next prompt or tool result instead, under the
//     same rule; a compaction still owed then stays owed (Gemini CLI 0.61
//     compresses `-p /compress` in the background, so its PreCompress can
//     come after that prompt's BeforeAgent, and the next prompt may come
//     only after a resume).
//   - The stop guard never traps: it stands aside while the agent is
//     already continuing because of a stop hook (stop_hook_active), after
//     StopBlocks blocks within StopWindow, in plan mode, when the agent
//     ends its turn with a question for the user, and for a session with
//     no list or whose remaining items are all blocked. A call whose State
//     could not be read blocks nothing: a block it cannot count could
//     repeat forever.
//   - Reminders come after RemindAfter assistant turns with unfinished
//     items and no list update, then not again for another RemindAfter
//     turns. By default they cover only lists the agent does not remind
//     itself of (Options.OwnReminders).
//   - The verification nudge uses tally.VerificationDue, the rule Tally's
//     own task tools apply, on the agent's own list; it is given once
//     until a new list starts.
//   - A call from inside a sub-agent (Event.AgentID set) gets no answer:
//     the lists are the main agent's.
//
// Wire formats are Format implementations; Claude Code's (ClaudeFormat) is
// also Codex's, whose hooks take and give the same JSON. Gemini CLI's
// (GeminiFormat) maps its own event names onto the same rules.
package hook
