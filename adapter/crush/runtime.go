package crush

import (
	"context"
	"database/sql"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
)

// Runtime progress (package toolrun): each tool_call part of a session's
// messages (messages.parts, [{"type":"tool_call","data":{id, name,
// input}}], internal/message/content.go) is a call of its root session's
// runtime list, finished by the tool_result part naming it (tool_call_id,
// is_error: failed). Only the sessions that may still be going are read —
// updated within 30 minutes of the database's newest update, a clock from
// the data itself (seconds, or milliseconds in a database that keeps
// them) — so a database of history costs one query.
const toolPartsSQL = `SELECT m.session_id, json_extract(p.value, '$.type'),
	COALESCE(json_extract(p.value, '$.data.id'), json_extract(p.value, '$.data.tool_call_id'), ''),
	COALESCE(json_extract(p.value, '$.data.name'), ''), COALESCE(json_extract(p.value, '$.data.input'), ''),
	COALESCE(json_extract(p.value, '$.data.is_error'), 0), COALESCE(CAST(m.created_at AS INTEGER), 0)
FROM messages m, json_each(CASE WHEN json_valid(m.parts) THEN m.parts ELSE '[]' END) p
WHERE m.session_id IN (SELECT id FROM sessions WHERE updated_at >= (SELECT MAX(updated_at) FROM sessions)
		- CASE WHEN (SELECT MAX(updated_at) FROM sessions) > 100000000000 THEN 1800000 ELSE 1800 END)
  AND json_extract(p.value, '$.type') IN ('tool_call', 'tool_result')
ORDER BY m.created_at, m.rowid, p.key`

// readRuntime reads the tool parts of the sessions that may still be
// going, by root session.
func (st *dbState) readRuntime(ctx context.Context, tx *sql.Tx) error {
	cols, err := agentdb.Columns(ctx, tx, "messages")
	if err != nil || !cols["parts"] || !cols["session_id"] || !cols["created_at"] {
		return err
	}
	rs, err := tx.QueryContext(ctx, toolPartsSQL)
	if err != nil {
		return err
	}
	defer rs.Close()
	st.runtime = make(map[string][]tally.Event)
	for rs.Next() {
		var sid, typ, id, name, input string
		var isErr, at int64
		if err := rs.Scan(&sid, &typ, &id, &name, &input, &isErr, &at); err != nil {
			return err
		}
		if st.rows[sid] == nil {
			continue
		}
		r := root(st.rows, sid)
		emit := func(ev tally.Event) { st.runtime[r] = append(st.runtime[r], ev) }
		if typ == "tool_call" {
			toolrun.Start(emit, id, name, toolrun.InputOf([]byte(input)), unixTime(at))
		} else {
			toolrun.End(emit, id, isErr != 0, unixTime(at))
		}
	}
	return rs.Err()
}
