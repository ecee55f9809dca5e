package opencodedb

import (
	"context"
	"database/sql"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
)

// Runtime progress (package toolrun): each tool part of a session
// (part.data {type:"tool", callID, tool, state: {status pending|running|
// completed|error, input}}) is a call of its root session's runtime list,
// running until its state is completed, or error (failed). Only the
// sessions that may still be going are read — those updated within
// runtimeWindow of the database's newest update, a clock taken from the
// data itself — so a database full of history costs one indexed query.
const runtimeWindow = 30 * 60 * 1000 // ms, as tally.EndedAfter

const toolPartsSQL = `SELECT session_id, COALESCE(json_extract(data, '$.callID'), ''), COALESCE(json_extract(data, '$.tool'), ''),
	COALESCE(json_extract(data, '$.state.status'), ''), COALESCE(json_extract(data, '$.state.input.command'), ''),
	COALESCE(json_extract(data, '$.state.input.filePath'), json_extract(data, '$.state.input.path'), ''),
	COALESCE(json_extract(data, '$.state.input.description'), ''), COALESCE(json_extract(data, '$.state.input.pattern'), ''),
	COALESCE(CAST(time_created AS INTEGER), 0)
FROM part
WHERE session_id IN (SELECT id FROM session WHERE time_updated >= (SELECT MAX(time_updated) FROM session) - ?)
  AND json_valid(data) AND json_extract(data, '$.type') = 'tool'
ORDER BY time_created, id`

// readRuntime reads the tool parts of the sessions that may still be
// going into st.runtime, by root session.
func (st *dbState) readRuntime(ctx context.Context, tx *sql.Tx) error {
	cols, err := agentdb.Columns(ctx, tx, "part")
	if err != nil || !cols["session_id"] || !cols["data"] || !cols["time_created"] || !cols["id"] {
		return err
	}
	scols, err := agentdb.Columns(ctx, tx, "session")
	if err != nil || !scols["time_updated"] {
		return err
	}
	rows, err := tx.QueryContext(ctx, toolPartsSQL, runtimeWindow)
	if err != nil {
		return err
	}
	defer rows.Close()
	st.runtime = make(map[string][]tally.Event)
	for rows.Next() {
		var sid, id, tool, status, command, path, desc, pattern string
		var at int64
		if err := rows.Scan(&sid, &id, &tool, &status, &command, &path, &desc, &pattern, &at); err != nil {
			return err
		}
		if st.sessions[sid] == nil {
			continue
		}
		root := st.root(sid)
		emit := func(ev tally.Event) { st.runtime[root] = append(st.runtime[root], ev) }
		toolrun.Start(emit, id, tool, toolrun.Input{Command: command, Path: path, Title: desc, Pattern: pattern}, Millis(at))
		switch status {
		case "completed":
			toolrun.End(emit, id, false, Millis(at))
		case "error":
			toolrun.End(emit, id, true, Millis(at))
		}
	}
	return rows.Err()
}
