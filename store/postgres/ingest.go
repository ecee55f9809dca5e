package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// Ingest applies a batch a machine's tally push sent, in one transaction
// that holds the lock of the stream's push_streams row from its read of
// the stream's mark to its commit: a batch sent again while the first is
// being applied (a retry after a lost answer) waits, then finds the mark
// moved and is a repeat. Lock order is the stream's row, the change marks,
// the needs-input marks, as for hook calls and task lists.
//
// Records are written with the batch's machine and user, in their JSON and
// in the origin columns, and each takes the next change mark, so every
// replica's board sees them; a record whose id a session of another origin
// holds is refused. Records of agent tally (the task lists of a machine's
// own tally mcp) are refused too: the team's lists are the server's.
func (s *Store) Ingest(ctx context.Context, b tally.PushBatch) (tally.PushAck, error) {
	const op = "postgres.Ingest"
	if err := tally.CheckPush(&b); err != nil {
		return tally.PushAck{}, err
	}
	for _, k := range []string{b.Machine, b.User, b.Stream} {
		if err := storable("origin", k); err != nil {
			return tally.PushAck{}, tally.Errorf(tally.CodeInvalid, op, "%v; nothing was written", err)
		}
	}
	pushed, js, refused, err := column.Pushed(op, &b, func(id string) bool { return storable("session id", id) != nil })
	if err != nil {
		return tally.PushAck{}, err
	}
	var recs recordCols
	for i := range pushed {
		recs.add(pushed[i], js[i])
	}
	var ack tally.PushAck
	// Three round trips and the commit: the stream's mark (which decides
	// whether to write), the change marks with the needs-input marks read
	// under their lock, then every write at once.
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		ack = tally.PushAck{}
		var mark int64
		if err := tx.QueryRow(ctx, q.streamLock, b.Machine, b.Stream, textCol(b.User)).Scan(&mark); err != nil {
			return err
		}
		switch {
		case b.To <= mark:
			ack = tally.PushAck{Acked: mark, Repeat: true}
			return nil
		case b.From > mark:
			ack = tally.PushAck{Acked: mark, Resend: true}
			return nil
		}
		ack = tally.PushAck{Acked: b.To, Refused: refused}
		batch := &pgx.Batch{}
		if len(recs.id) > 0 {
			top, gone, err := s.marksAndWaiting(ctx, tx, &recs)
			if err != nil {
				return err
			}
			batch.Queue(q.ingestSessions, recs.id, recs.agent, recs.project, recs.title,
				recs.started, recs.last, recs.record, top, b.Machine, textCol(b.User))
			if len(gone) > 0 {
				batch.Queue(q.needsInputDelete, gone)
			}
		}
		batch.Queue(q.streamPut, b.Machine, b.Stream, b.To, textCol(b.User), b.Lines)
		batch.Queue(q.notify, channel, "push")
		br := tx.SendBatch(ctx, batch)
		if len(recs.id) > 0 {
			rows, err := br.Query()
			if err != nil {
				br.Close()
				return err
			}
			written := map[string]bool{}
			for rows.Next() {
				var id string
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					br.Close()
					return err
				}
				written[id] = true
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				br.Close()
				return err
			}
			for _, id := range recs.id {
				if !written[id] {
					ack.Refused = append(ack.Refused, id)
				}
			}
			ack.Applied = len(written)
		}
		return br.Close()
	})
	if err != nil {
		return tally.PushAck{}, s.wrap(op, err)
	}
	return ack, nil
}
