// Package crush reads the todo lists of Crush (charmbracelet/crush) from
// its per-project SQLite database, <project>/.crush/crush.db.
//
// Crush's todos tool replaces the whole list and Crush keeps only the
// current one, as JSON in the sessions.todos column
// ([{content, status, active_form}]; snake_case active_form becomes
// ActiveForm, shown while the item is in progress). So a session's list is
// one snapshot. Crush's statuses are pending, in_progress and completed;
// it has no cancelled, and any other word is kept as unknown with the word
// itself. A session that never wrote a list (todos NULL, or a database
// older than the column) has none.
//
// The database holds every session of its project, so it is read whole
// (tally.DatabaseReader) whenever it or its -wal changes, read-only, while
// Crush writes it. The project is the directory holding .crush; title and
// times come from the sessions table (Unix seconds; a value too large for
// seconds is read as milliseconds); whose turn it is from the most
// recently written message (of those in the newest second, the last
// inserted) (an assistant message with finished_at set ends
// the agent's turn). Child sessions (parent_session_id: a sub-agent's
// task, the title generator) are not sessions of their own: a child's
// list, when it has one, is a list of its root session named by its id.
//
// Discovery: Crush keeps one database per project, and since v0.25.0
// (2025-12) an index of them: projects.json in its global data directory
// ($CRUSH_GLOBAL_DATA, else $XDG_DATA_HOME/crush, else
// ~/.local/share/crush; Options.GlobalDir), {"projects": [{path, data_dir,
// last_accessed}]}, one entry per directory Crush ran in. Each listed data
// directory is read for its crush.db (never walked), its sessions under
// the listed path. Besides, Tally reads ./.crush under the directory it
// runs in, and $CRUSH_DATA_DIR when set; Options.Roots replaces both.
// Such a root may be a .crush directory, a data directory, or any
// directory above projects: every <project>/.crush/crush.db below it is
// read, at the cost of walking that tree.
//
// Crush keeps no log or stream to read line by line, so the adapter is only
// a tally.DatabaseReader: tally normalize and tally follow do not offer it.
package crush
