package hermes

import (
	"context"
	"database/sql"
	_ "embed"
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
)

// Runtime progress (package toolrun) of state.db: each tool call of the
// recent assistant rows (the window recent_calls.sql reads, the newest
// message standing for now) is a call of its conversation's runtime list,
// finished by the tool row answering it (tool_call_id), failed when that
// row is a JSON object with an error.

//go:embed sql/recent_results.sql
var recentResultsSQL string

// runtimeStarts are the Start events of a tool_calls list.
func runtimeStarts(raw []byte, at time.Time) []tally.Event {
	var calls []wireCall
	if json.Unmarshal(raw, &calls) != nil {
		return nil
	}
	var evs []tally.Event
	emit := func(ev tally.Event) { evs = append(evs, ev) }
	for _, c := range calls {
		args := []byte(c.Function.Arguments)
		var s string
		if json.Unmarshal(args, &s) == nil { // OpenAI's arguments: a JSON string
			args = []byte(s)
		}
		toolrun.Start(emit, c.ID, c.Function.Name, toolrun.InputOf(args), at)
	}
	return evs
}

// readResults finishes the recent calls with their tool rows.
func (st *dbState) readResults(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, recentResultsSQL, recentCalls.Seconds())
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var sid, id string
		var ts float64
		var content []byte
		if err := rows.Scan(&sid, &ts, &id, &content); err != nil {
			return err
		}
		var r struct {
			Error json.RawMessage `json:"error"`
		}
		failed := json.Unmarshal(content, &r) == nil && len(r.Error) > 0 && string(r.Error) != "null" && string(r.Error) != `""`
		emit := func(ev tally.Event) { st.runtime[sid] = append(st.runtime[sid], ev) }
		toolrun.End(emit, id, failed, unixTime(ts))
	}
	return rows.Err()
}
