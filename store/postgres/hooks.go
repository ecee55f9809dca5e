package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// HookStateAge is how long a session's hook state is kept after its last
// hook call: past it the session is long over.
const HookStateAge = 30 * 24 * time.Hour

// UpdateHook runs fn on the session's saved hook state (nil if none) in one
// transaction that holds the session's hook_state row lock from its read
// to its commit, so the hook processes of one session — on any machine
// sharing the database — take turns, and each sees what the last saved.
//
// The signal fn returns is what the call learned of the session at at:
// tally.SignalAsking marks it as waiting for its user, kept in needs_input
// and shown at once in the session's record (signal asking, last activity
// at), which takes the next change mark so every replica's surfaces see
// it; tally.SignalWorking is activity, which ends such a mark;
// tally.SignalNone says nothing. Lock order is the hook row, then the
// change marks, then the needs_input row — the order commits and pushes
// take them in too — so calls cannot deadlock.
//
// It does not retry: a hook has a deadline, and ctx carries it.
func (s *Store) UpdateHook(ctx context.Context, session string, at time.Time, fn func(saved []byte) ([]byte, tally.Signal, error)) error {
	const op = "postgres.UpdateHook"
	if session == "" {
		return tally.Errorf(tally.CodeInvalid, op, "no session id")
	}
	if err := storable("session id", session); err != nil {
		return tally.Errorf(tally.CodeInvalid, op, "%v", err)
	}
	var refused error
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		now := time.Now().UnixNano()
		if _, err := tx.Exec(ctx, q.hookClaim, session, now); err != nil {
			return err
		}
		var saved []byte
		if err := tx.QueryRow(ctx, q.hookLock, session).Scan(&saved); err != nil {
			return err
		}
		state, sig, err := fn(saved)
		if err != nil {
			refused = err
			return err
		}
		if state != nil {
			if _, err := tx.Exec(ctx, q.hookPut, session, state, now); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, q.hookPrune, now-int64(HookStateAge)); err != nil {
				return err
			}
		}
		switch sig {
		case tally.SignalAsking:
			top, err := takeMarks(ctx, tx, 1)
			if err != nil {
				return err
			}
			var mark int64
			if err := tx.QueryRow(ctx, q.needsInputPut, session, column.Time(at)).Scan(&mark); err != nil {
				return err
			}
			return s.resignal(ctx, tx, top, session, tally.SignalAsking, time.Unix(0, mark))
		case tally.SignalWorking:
			// Most calls find no mark: they take no change mark either.
			var marked bool
			if err := tx.QueryRow(ctx, q.needsInputExists, session).Scan(&marked); err != nil || !marked {
				return err
			}
			top, err := takeMarks(ctx, tx, 1)
			if err != nil {
				return err
			}
			tag, err := tx.Exec(ctx, q.needsInputDelete, []string{session})
			if err != nil || tag.RowsAffected() == 0 {
				return err // a commit with newer activity ended it meanwhile
			}
			return s.resignal(ctx, tx, top, session, tally.SignalWorking, at)
		case tally.SignalNone, tally.SignalEnded:
		}
		return nil
	})
	if refused != nil {
		return refused
	}
	return s.wrap(op, err)
}

// resignal rewrites a stored record's signal as of at, if the record
// exists, with change mark top. The caller took the mark before the record
// is read, so the record read is the newest committed: a commit that held
// the marks meanwhile is not overwritten with what it replaced.
func (s *Store) resignal(ctx context.Context, tx pgx.Tx, top int64, session string, sig tally.Signal, at time.Time) error {
	var js []byte
	err := tx.QueryRow(ctx, q.recordByID, session).Scan(new(string), &js)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // the mark waits for the session's first record
	}
	if err != nil {
		return err
	}
	rec, ok := column.Resignal(session, js, sig, at, s.skip)
	if !ok {
		return nil
	}
	out, err := json.Marshal(&rec)
	if err != nil {
		return err
	}
	var recs recordCols
	recs.add(&rec, out)
	batch := &pgx.Batch{}
	queueRecords(batch, &recs, top)
	return tx.SendBatch(ctx, batch).Close()
}

// scanMarks reads rows of (session, at), closing them.
func scanMarks(rows pgx.Rows) (map[string]int64, error) {
	defer rows.Close()
	marks := map[string]int64{}
	for rows.Next() {
		var id string
		var at int64
		if err := rows.Scan(&id, &at); err != nil {
			return nil, err
		}
		marks[id] = at
	}
	return marks, rows.Err()
}

// applyMarks rewrites the records of c that a mark holds, and returns the
// sessions whose marks newer activity ended.
func applyMarks(c *recordCols, marks map[string]int64) (gone []string, err error) {
	if len(marks) == 0 {
		return nil, nil
	}
	for i, rec := range c.recs {
		at, ok := marks[rec.ID]
		if !ok {
			continue
		}
		waiting, ended := column.Waiting(rec, at)
		if ended {
			gone = append(gone, rec.ID)
			continue
		}
		js, err := json.Marshal(waiting)
		if err != nil {
			return nil, err
		}
		c.recs[i], c.record[i], c.last[i] = waiting, string(js), at
	}
	return gone, nil
}

// SessionFiles returns the saved states of every file of a session, by
// path. Damaged rows are skipped and counted (see Skipped).
func (s *Store) SessionFiles(ctx context.Context, session string) ([]*tally.FileState, error) {
	const op = "postgres.SessionFiles"
	if storable("session id", session) != nil {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, q.sessionFiles, session)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	out, err := scanJSON(s, rows, "files", func(path string, st *tally.FileState) { st.Path = path })
	if err != nil {
		return nil, s.wrap(op, err)
	}
	states := make([]*tally.FileState, len(out))
	for i := range out {
		states[i] = &out[i]
	}
	return states, nil
}

// marksAndWaiting takes the change marks for the records in c, shows their
// sessions' newest requests on them and applies the needs-input marks to
// them, in one round trip: a record whose last
// activity is not after its session's mark still waits for the user (an
// indexer folded lines written before the prompt); a record with newer
// activity ends the mark, and its session is returned among those whose
// marks to delete. The statements of a batch run in order, so the marks
// are read after the change marks' lock is held: a hook call that marked
// a session took that lock too, so its mark is committed and seen here,
// or it waits and resignals what this transaction writes.
func (s *Store) marksAndWaiting(ctx context.Context, tx pgx.Tx, c *recordCols) (top int64, gone []string, err error) {
	batch := &pgx.Batch{}
	batch.Queue(q.takeMarks, int64(len(c.id)))
	batch.Queue(q.requestsOf, c.id, column.Time(time.Now().Add(-column.RequestsShownFor)))
	batch.Queue(q.needsInputOf, c.id)
	br := tx.SendBatch(ctx, batch)
	defer br.Close()
	if err := br.QueryRow().Scan(&top); err != nil {
		return 0, nil, err
	}
	rows, err := br.Query()
	if err != nil {
		return 0, nil, err
	}
	if err := applyRequests(c, rows, s.skip); err != nil {
		return 0, nil, err
	}
	rows, err = br.Query()
	if err != nil {
		return 0, nil, err
	}
	marks, err := scanMarks(rows)
	if err != nil {
		return 0, nil, err
	}
	gone, err = applyMarks(c, marks)
	return top, gone, err
}
