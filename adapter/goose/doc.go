// Package goose reads the todo of Goose (block/goose), the agent of
// Block's goose CLI and desktop app, from its SQLite sessions database,
// <data>/sessions/sessions.db, where <data> is $GOOSE_PATH_ROOT/data when
// that is set and the XDG data folder's goose otherwise.
//
// Goose's todo extension offers the model one tool, todo_write (named
// todo__todo_write), which replaces the whole todo: free Markdown text,
// which the extension's instructions ask to be a checklist ("- [x]
// Requirement 1", "- [ ] Task", a sub-task indented below). Goose keeps
// only the current text, in the session's extension_data column, as
// {"todo.v0": {"content": text}}, and hands it back to the model every
// turn. So a session's list is one snapshot: the checklist of that text
// (Checklist), each box an item — "[x]" completed, "[ ]" pending and
// Lossy (a box cannot say a step is under way), "[-]", "[~]" or "[/]" in
// progress, any other mark unknown with the mark kept. A session whose
// todo holds no box has an empty list; one that never wrote a todo has
// none. Only that member of extension_data is read, inside SQLite: the
// rest holds the enabled extensions' configurations, their environment
// among them.
//
// The database holds every session, so it is read whole
// (tally.DatabaseReader) whenever it or its -wal changes, read-only, while
// Goose writes it. Title (name, else the older description), folder
// (working_dir) and times (created_at, updated_at: text SQLite reads) come
// from the sessions table; whose turn it is from the session's last
// message: an assistant message asking for no tool ends Goose's reply,
// anything else (a tool's answer is a user message) means it works on.
// Progress markers are read from the text blocks of the assistant's
// messages, each placed by its message's id and time.
// Hidden sessions are Goose's own bookkeeping and are not shown; a
// sub-agent's session (session_type sub_agent) names no parent in the
// table, so it is a session of its own.
//
// Not read: sessions a Goose before 1.10 kept as one .jsonl each (Goose
// imports them into the database when it creates it), and the macOS
// default folder (~/Library/Application Support/Block/goose, named with
// --goose-dir). Goose keeps no log to read line by line, so the adapter is
// only a tally.DatabaseReader: tally normalize and tally follow do not
// offer it.
package goose
