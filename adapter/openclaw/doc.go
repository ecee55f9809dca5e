// Package openclaw reads OpenClaw's sessions (2026.9.6): every OpenClaw
// agent keeps them in one SQLite database,
// <state>/agents/<agentId>/agent/openclaw-agent.sqlite, the state
// directory being OPENCLAW_STATE_DIR or ~/.openclaw. There are no
// transcript files (but archived ones); everything is read from the
// database, read-only, in one transaction (package agentdb).
//
// What it reads, and from where (docs/formats.md has the layout):
//
//   - a session is a session window (session_windows.session_id, the
//     transcript's id), titled by its node's display name or label
//     (session_nodes), else its first prompt;
//   - its list is its key's progress card (session_progress_cards.steps_json,
//     [{step, status}], written whole by the progress_card tool, alias
//     update_plan), shown on the key's current window; a cleared card is an
//     empty list;
//   - its runtime progress (tally.RuntimeList, through package toolrun) is
//     the trajectory's tool.call and tool.result events
//     (trajectory_runtime_events: what the runner recorded of each tool
//     execution, success or not), and each child session spawned from it
//     (session_nodes.parent_session_key), running until its node says done
//     or failed; a child's own card, if it keeps one, is a list of the
//     parent named by the child's label. Children are not sessions of
//     their own;
//   - its project is the transcript header's cwd; whose turn it is, the
//     newest transcript message (transcript_events, event_json or
//     event_zstd, zstd-compressed, bounded to 4 MiB); only the first and
//     last few events are read, so a read costs the same however long the
//     session;
//   - stall notices, which flag the session stalled at once (Meta.Stalled):
//     a run the trajectory says ended idle-timed-out (model.completed
//     idleTimedOut) after the newest message, and the CLI watchdog's notice
//     ("produced no output for Ns and was terminated") in a prompt.
//
// A card or event that cannot be read is a diagnostic naming its row; the
// rest of the session is read.
package openclaw
