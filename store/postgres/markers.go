package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// markerCols are a batch's markers encoded as the column arrays the insert
// unnests, before the transaction begins.
type markerCols struct {
	key, session, project, marker []string
	at                            []int64
}

func encodeMarkers(ms []tally.FoundMarker) (markerCols, error) {
	const op = "postgres.Commit"
	var c markerCols
	for i := range ms {
		m := &ms[i]
		if m.Key == "" || m.Session == "" {
			return markerCols{}, tally.Errorf(tally.CodeInvalid, op, "marker %d of the batch has no key or session; nothing was written", i)
		}
		if err := storable("marker key", m.Key); err != nil {
			return markerCols{}, tally.Errorf(tally.CodeInvalid, op, "%v; nothing was written", err)
		}
		if err := storable("marker session", m.Session); err != nil {
			return markerCols{}, tally.Errorf(tally.CodeInvalid, op, "%v; nothing was written", err)
		}
		js, err := json.Marshal(&m.Marker)
		if err != nil {
			return markerCols{}, tally.Errorf(tally.CodeInvalid, op, "marker %s cannot be stored (%v); nothing was written", m.Key, err)
		}
		c.key = append(c.key, m.Key)
		c.session = append(c.session, m.Session)
		c.project = append(c.project, textCol(m.Project))
		c.at = append(c.at, column.Time(m.Marker.At))
		c.marker = append(c.marker, string(js))
	}
	return c, nil
}

// queueMarkers records the batch's markers as pending, each key once: a
// key already recorded, by this process or another, keeps its row.
func queueMarkers(batch *pgx.Batch, c *markerCols) {
	if len(c.key) > 0 {
		batch.Queue(q.markerPut, c.key, c.session, c.project, c.at, c.marker)
	}
}

// PendingMarkers returns up to limit markers still pending, oldest first.
// A row whose marker JSON does not decode is skipped and counted.
func (s *Store) PendingMarkers(ctx context.Context, limit int) ([]tally.FoundMarker, error) {
	const op = "postgres.PendingMarkers"
	rows, err := s.pool.Query(ctx, q.markerPending, limit)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	out, err := column.FoundMarkers(rows, s.skip)
	return out, s.wrap(op, err)
}

// SettleMarkers records results in one transaction; a key settled before,
// by any process, keeps its first result. Rows are settled in key order,
// so replicas settling overlapping keys at once take the rows' locks in
// one order and never deadlock; of one key given twice, the first result
// stands.
func (s *Store) SettleMarkers(ctx context.Context, results []tally.MarkerResult) error {
	const op = "postgres.SettleMarkers"
	var todo []tally.MarkerResult
	for _, r := range results {
		// A key PostgreSQL cannot store is in no row: nothing to settle.
		if r.Verdict != tally.MarkerPending && storable("key", r.Key) == nil {
			todo = append(todo, r)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	slices.SortStableFunc(todo, func(a, b tally.MarkerResult) int { return cmp.Compare(a.Key, b.Key) })
	batch := &pgx.Batch{}
	for _, r := range todo {
		var at *int64
		if !r.At.IsZero() {
			n := column.Time(r.At)
			at = &n
		}
		batch.Queue(q.markerSettle, r.Verdict.String(), textCol(r.Reason), textCol(r.Plan), at, r.Key)
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, batch).Close()
	})
	return s.wrap(op, err)
}

// SessionMarkers returns a session's markers and what became of them, in
// the order they were written. A row that does not decode is skipped and
// counted.
func (s *Store) SessionMarkers(ctx context.Context, session string) ([]tally.MarkerState, error) {
	const op = "postgres.SessionMarkers"
	if storable("session", session) != nil {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, q.markerSession, session)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	out, err := column.MarkerStates(rows, s.skip)
	return out, s.wrap(op, err)
}
