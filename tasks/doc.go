// Package tasks is the task lists Tally keeps itself, for agents that call
// its task tools (tally mcp) instead of keeping a list in their own log.
//
// What it promises: a List's methods are the rules of those tools, pure
// and deterministic, and a method that returns an error leaves the list
// exactly as it was, so a tool call lands whole or not at all. The rules
// are stated on List: one task in progress, no start with open blockers,
// an owner's task in progress is not taken by another, plan mode refuses
// execution until approved, verification is due when many tasks close
// with none that checks the work, and a fresh round starts once all is
// done.
//
// Why it is shaped so: the package knows the rules, not the caller. It
// takes typed values (statuses, not the words a tool accepts) and returns
// typed answers: which fields changed, the status before and after, and
// refusals as *tally.Error whose Err is a NotFoundError, PlanModeError,
// BlockedError, BusyError or ClaimError carrying the facts. Its messages
// say what is wrong; what to do instead, in words for a model, and the
// JSON a tool answers with belong to the edge that talks to the model
// (package mcp). A List is a plain value a store keeps (store/sqlite keeps
// each task as a row, so a call writes what it changed) and shows as the
// session "tally:NAME" of agent tally (List.Record), so every surface
// shows it like any agent's list.
package tasks
