// Package hookservice answers agents' hook calls: `tally hook AGENT` on a
// command line and POST /api/hook/AGENT on tally serve both call it, and
// nothing else does what it does. Package hook holds the rules, pure
// (hook.Decide); this package is everything around them that touches the
// world: reading the call, folding the session's transcript, reading the
// session's Tally list, taking the hooks' memory in the store's
// transaction, answering in time.
//
// What it promises:
//   - An agent is never broken: Answer gives the agent its answer within
//     Deadline of the call's start or nothing at all, and what went wrong
//     goes to Tally's log (Options.Log), never to the agent.
//   - A store that does not answer is given StoreWait to open and each
//     read, and LockWait for its write lock: past them the call is
//     answered from the transcript alone (without the hooks' memory, a
//     stop is never refused).
//   - The transcript a call names is read only if it is one of the
//     agent's session logs under the home Tally indexes (tail.Claim) and
//     holds the session the call names; anything else is not read, and
//     logged. A call from a sub-agent (its agent_id) gets no answer.
//   - The transcript is folded by the indexer's own read (index.FoldFile)
//     from where the store left off; a fold of CommitAfter bytes or more
//     is committed by the indexer's own commit (markers, detection), after
//     the answer, in what is left of the deadline. The hooks never write a
//     file's state any other way.
//   - A list call a PostToolUse reports (Claude Code's tool_input and
//     tool_response of TodoWrite, TaskCreate, TaskUpdate) counts at once:
//     Claude Code 2.1.330 runs its hooks before it writes the call to the
//     transcript, so the call is read by the adapter's own decoder from
//     what the hook was told (claude.Adapter.Told) and remembered with the
//     hooks' memory until the transcript's list has seen it
//     (tally.List.Saw). The stop guard decides from that list.
//   - The model's turns between list updates are counted by that same
//     read (tally.Turner, FileState.Turns), never by reading the
//     transcript again: the hooks remember the count, not an offset.
//
// Why it is shaped so: the store, the agents and the log are given as
// small interfaces and functions (Options), so the command line opens the
// store per call and the server passes its own, and tests drive the
// service with a store of their own. Each event is answered by a
// responder (respond.go): the rules for every event today; an event that
// waits on something else for its answer (a permission asked of the
// board) takes a responder of its own there.
package hookservice
