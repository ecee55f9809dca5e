// Package hermes reads the todo lists of Hermes agent
// (NousResearch/hermes-agent): its SQLite store state.db, the older
// per-session JSON logs, and a stream form for `tally normalize`.
//
// Hermes' todo tool ("todo", later "todo_list", tools/todo_tool.py) takes
// {todos?, merge?}: no todos reads the list, merge=false replaces it,
// merge=true updates items by id and appends unknown ids. Every call
// returns the whole list as JSON, and that result is what Tally trusts: it
// is the store's state after the call, with Hermes' own rules already
// applied (statuses it refused turned to pending, duplicate ids collapsed,
// the active step moved up). Only a call with no readable result is folded
// from its arguments, following the same rules: replace is a snapshot,
// merge an EventMerge (items without id skipped), and a status Hermes would
// refuse becomes pending with the model's word kept in RawStatus, because
// pending is what Hermes stored. A result saying the call failed changes
// nothing. A status in a result that is not one of Hermes' four words
// comes from a Hermes newer than this code and is kept as unknown.
//
// state.db holds every session, so it is read whole (tally.DatabaseReader)
// whenever it or its -wal changes, read-only, while Hermes writes it.
// Hermes splits a conversation into a chain of sessions when it compresses
// its context (parent_session_id, end_reason "compression"), and its todo
// list carries over: Tally shows one chain as one session, named by the
// root's id, which never changes while the conversation goes on. Branches
// and delegated sub-agents, which also name a parent, stay sessions of
// their own. Titles and cwd come from the columns later schemas add; a
// session without a title is named, weakly, by its first prompt.
//
// Progress markers are read from assistant messages' text: in state.db
// from the rows whose content holds "progress:", placed by the row's id.
//
// Every tool call is fingerprinted from its name and its arguments as
// written (EventToolCall), to tell a conversation calling the same thing
// again and again: in the logs and the stream, every call; in state.db,
// the calls of the last half hour before its newest message, since the
// database is read whole at every change and older calls tell nothing
// any more.
//
// sessions/session_<id>.json logs are read only when there is no
// state.db: since the database exists Hermes writes them only on request,
// and they repeat what it holds.
//
// The stream form is one chat message per line, OpenAI style, as Hermes'
// get_messages_as_conversation returns them: {"role", "content",
// "tool_calls": [{"id", "function": {"name", "arguments"}}],
// "tool_call_id"}, with optional "timestamp" (Unix seconds, the state.db
// column) and "session_id". A todo call is applied from its arguments when
// its line is read and replaced by its result's list when that line comes.
//
// Not shown: an item's parent (later revisions nest subtasks; tally.Item
// has no field for it, the items appear flat in Hermes' order) and the
// store's revision counter (rows are folded in order from scratch, so it
// adds nothing, and it restarts with the agent process).
package hermes
