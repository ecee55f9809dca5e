package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// Marker queries run as text: markers are rare, and statements.go belongs
// to the indexer's hot path.
var markerSQL = struct {
	put, pending, settle, session string
}{
	put:     mustQuery("marker_put"),
	pending: mustQuery("marker_pending"),
	settle:  mustQuery("marker_settle"),
	session: mustQuery("marker_session"),
}

// markerRow is a batch's marker encoded before the transaction begins.
type markerRow struct {
	m    *tally.FoundMarker
	json string
}

func encodeMarkers(ms []tally.FoundMarker) ([]markerRow, error) {
	const op = "sqlite.Commit"
	rows := make([]markerRow, 0, len(ms))
	for i := range ms {
		m := &ms[i]
		if m.Key == "" || m.Session == "" {
			return nil, tally.Errorf(tally.CodeInvalid, op, "marker %d of the batch has no key or session; nothing was written", i)
		}
		js, err := json.Marshal(&m.Marker)
		if err != nil {
			return nil, tally.Errorf(tally.CodeInvalid, op, "marker %s cannot be stored (%v); nothing was written", m.Key, err)
		}
		rows = append(rows, markerRow{m: m, json: string(js)})
	}
	return rows, nil
}

// putMarkers records the batch's markers as pending, each key once.
func (s *Store) putMarkers(ctx context.Context, tx *sql.Tx, rows []markerRow, now int64) error {
	if len(rows) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, markerSQL.put)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, r := range rows {
		m := r.m
		if _, err := stmt.ExecContext(ctx, m.Key, m.Session, m.Project, column.Time(m.Marker.At), r.json, now); err != nil {
			return err
		}
	}
	return nil
}

// PendingMarkers returns up to limit markers still pending, oldest first.
// A row whose marker JSON is damaged is skipped and counted.
func (s *Store) PendingMarkers(ctx context.Context, limit int) ([]tally.FoundMarker, error) {
	const op = "sqlite.PendingMarkers"
	rows, err := s.r.QueryContext(ctx, markerSQL.pending, limit)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	out, err := column.FoundMarkers(rows, s.skip)
	return out, s.wrap(op, err)
}

// SettleMarkers records results in one transaction; a key settled before
// keeps its first result.
func (s *Store) SettleMarkers(ctx context.Context, results []tally.MarkerResult) error {
	const op = "sqlite.SettleMarkers"
	if len(results) == 0 {
		return nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	stmt, err := tx.PrepareContext(ctx, markerSQL.settle)
	if err != nil {
		return s.wrap(op, err)
	}
	defer stmt.Close()
	for _, r := range results {
		if r.Verdict == tally.MarkerPending {
			continue
		}
		if _, err := stmt.ExecContext(ctx, r.Verdict.String(), r.Reason, r.Plan, column.Time(r.At), r.Key); err != nil {
			return s.wrap(op, err)
		}
	}
	return s.wrap(op, tx.Commit())
}

// SessionMarkers returns a session's markers and what became of them, in
// the order they were written.
func (s *Store) SessionMarkers(ctx context.Context, session string) ([]tally.MarkerState, error) {
	const op = "sqlite.SessionMarkers"
	rows, err := s.r.QueryContext(ctx, markerSQL.session, session)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	out, err := column.MarkerStates(rows, s.skip)
	return out, s.wrap(op, err)
}
