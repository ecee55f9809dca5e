// Package cline reads the Cline CLI (3.x, built on the Cline SDK): its two
// SQLite databases in ~/.cline/data/db.
//
// Cline 3.0.65 offers its model no per-session todo tool (the SDK's `tasks`
// tool has its todo kind compiled off), so the list a model keeps is its
// agent team's task board, written through the `team_task` tool (create,
// claim, complete, block) into teams.db's team_tasks, one board per lead
// session, named by its id. What it promises:
//
//   - A session's list is its board's rows now, in their order (task_0001,
//     …), each with its status (pending, in_progress, completed, blocked),
//     assignee, description and the tasks it depends on; a board's tasks
//     are never removed, so the rows are the whole list (a resync).
//   - A session's folder, title (metadata_json.title, else its prompt),
//     start and end come from sessions.db; a sub-agent's or teammate's
//     session is left to its lead's board. A session with an end time is
//     over.
//   - Both databases are read only when they, or their write-ahead logs,
//     change; a row it cannot use is a diagnostic, never a failed read.
package cline
