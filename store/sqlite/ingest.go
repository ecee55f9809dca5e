package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// Queries of pushed batches and tokens run as text, like the hook ones:
// they are a team server's, off the indexer's hot path.
var teamSQL = struct {
	ingest, streamGet, streamPut                         string
	tokenAdd, tokens, tokenByID, tokenMatch, tokenDelete string
}{
	ingest:      mustQuery("ingest_session"),
	streamGet:   mustQuery("push_stream_get"),
	streamPut:   mustQuery("push_stream_put"),
	tokenAdd:    mustQuery("token_add"),
	tokens:      mustQuery("tokens"),
	tokenByID:   mustQuery("token_by_id"),
	tokenMatch:  mustQuery("token_match"),
	tokenDelete: mustQuery("token_delete"),
}

// Ingest applies a batch a machine's tally push sent, in one IMMEDIATE
// transaction: the stream's mark is read and moved under the write lock,
// so a batch sent twice is applied once. Records are written with the
// batch's machine and user, in their JSON and in the origin columns; a
// record whose id a session of another origin holds is refused, and so
// are records of agent tally (a machine's own task lists: the team's
// lists are the server's). Needs-input marks hold over pushed records as
// over committed ones.
func (s *Store) Ingest(ctx context.Context, b tally.PushBatch) (tally.PushAck, error) {
	const op = "sqlite.Ingest"
	if err := tally.CheckPush(&b); err != nil {
		return tally.PushAck{}, err
	}
	recs, js, refused, err := column.Pushed(op, &b, nil)
	if err != nil {
		return tally.PushAck{}, err
	}
	rows := make([]sessionRow, len(recs))
	for i := range recs {
		rows[i] = sessionRow{rec: recs[i], json: string(js[i])}
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return tally.PushAck{}, s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var mark int64
	err = tx.QueryRowContext(ctx, teamSQL.streamGet, b.Machine, b.Stream).Scan(&mark)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return tally.PushAck{}, s.wrap(op, err)
	}
	switch {
	case b.To <= mark && err == nil:
		return tally.PushAck{Acked: mark, Repeat: true}, nil
	case b.From > mark:
		return tally.PushAck{Acked: mark, Resend: true}, nil
	}
	ack := tally.PushAck{Acked: b.To, Refused: refused}
	if rows, err = s.keepWaiting(ctx, tx, rows); err != nil {
		return tally.PushAck{}, s.wrap(op, err)
	}
	now := time.Now().UnixNano()
	for _, r := range rows {
		rec := r.rec
		res, err := tx.ExecContext(ctx, teamSQL.ingest, rec.ID, string(rec.Agent), rec.Project, rec.Title,
			column.Time(rec.StartedAt), column.Time(rec.LastActivity), r.json, now, b.Machine, b.User)
		if err != nil {
			return tally.PushAck{}, s.wrap(op, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			ack.Refused = append(ack.Refused, rec.ID)
			continue
		}
		ack.Applied++
	}
	if _, err := tx.ExecContext(ctx, teamSQL.streamPut, b.Machine, b.Stream, b.To, b.User, b.Lines, now); err != nil {
		return tally.PushAck{}, s.wrap(op, err)
	}
	if err := tx.Commit(); err != nil {
		return tally.PushAck{}, s.wrap(op, err)
	}
	return ack, nil
}
