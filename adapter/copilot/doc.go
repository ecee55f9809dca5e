// Package copilot reads GitHub Copilot CLI's sessions (1.0.102). Each
// session is a folder, <home>/session-state/<id>/, the home being
// --config-dir, else COPILOT_HOME, else ~/.copilot:
//
//   - session.db, the session's own SQLite database, holds the model's
//     todos: Copilot has no todo tool, and the model writes the tables todos
//     (id, title, description, status pending|in_progress|done|blocked,
//     created_at, updated_at) and todo_deps (todo_id, depends_on) with SQL
//     through its sql tool. The tables are the list as it is now, read whole
//     (DatabaseReader) in the order Copilot reads them back: creation time,
//     then insertion. done is completed; a todo depending on an open one is
//     blocked;
//   - events.jsonl, the session's events (LineReader): session.start (its
//     id and cwd), user.message (a weak title), assistant.message (whose
//     turn: a message with no tool requests ends it), tool.execution_start
//     and tool.execution_complete (runtime progress, through package
//     toolrun, failed when success is false), permission and input
//     requests (asking), session.shutdown (ended). Every other type is
//     passed over from the line's first bytes.
//
// The two files of a session fold into one record by its id, the folder's
// name.
package copilot
