// Package opencode reads the todo lists of OpenCode (sst, now anomalyco):
// the SQLite database opencode.db of OpenCode 1.2 and later, and the JSON
// storage of earlier releases.
//
// todowrite replaces a session's whole list, and OpenCode keeps only the
// current one: the todo table (session_id, content, status, priority,
// position) in the database, storage/todo/<session>.json before it. So a
// session's list is one snapshot, in position order, and there is no
// history of calls to fold. Status is a free string: the four words
// todowrite documents (pending, in_progress, completed, cancelled) are
// mapped, any other is kept as unknown with its own word. Items have no
// id in the database (SDK v2 dropped it); the legacy files keep theirs.
//
// opencode.db holds every session, so it is read whole
// (tally.DatabaseReader) whenever it or its -wal changes, read-only, while
// OpenCode writes it. Title, directory and times come from the session
// table; whose turn it is from the newest message (an assistant message
// with time.completed set ends the agent's turn); an archived session is
// over. A sub-agent's session (parent_id, made by the task tool) is not a
// session of its own: its list, when it has one, is a list of its root
// session named by its id, as sub-agents' lists are for other agents.
//
// Where the files are: the data directory is $XDG_DATA_HOME/opencode or
// ~/.local/share/opencode; $OPENCODE_DB moves the database (":memory:"
// means there is no file); a release channel's database is
// opencode-<channel>.db beside the stable one. The legacy storage files
// are read only when there is no database, since OpenCode copied them into
// it and a session read from both would show twice.
//
// OpenCode writes no stream Tally could normalize, so the adapter is not a
// tally.StreamReader: tally normalize and tally follow do not offer it.
package opencode
