package sqlite

import (
	"context"
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// fileRow and sessionRow are a batch's elements encoded, before the
// transaction begins: the write lock is held only for the statements.
type fileRow struct {
	st    *tally.FileState
	state string
}

type sessionRow struct {
	rec  *tally.Record
	json string
}

// Commit writes the batch in one transaction: removals first, then the
// file states and records, so an element both removed and written in one
// batch ends up written. An element that cannot be stored (an empty path
// or id, a value JSON cannot hold) fails the whole batch with CodeInvalid
// before anything is written; a failure during the transaction rolls it
// back. Either way the store keeps its previous state.
func (s *Store) Commit(ctx context.Context, b tally.Batch) error {
	const op = "sqlite.Commit"
	files, sessions, err := encodeBatch(b)
	if err != nil {
		return err
	}
	markers, err := encodeMarkers(b.Markers)
	if err != nil {
		return err
	}
	if len(files)+len(sessions)+len(markers)+len(b.RemovedFiles)+len(b.RemovedSessions) == 0 {
		return nil // no need to take the write lock
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	now := time.Now().UnixNano()
	delFile := tx.StmtContext(ctx, s.stmts.deleteFile)
	for _, p := range b.RemovedFiles {
		if _, err := delFile.ExecContext(ctx, p); err != nil {
			return s.wrap(op, err)
		}
	}
	delSession := tx.StmtContext(ctx, s.stmts.deleteSession)
	for _, id := range b.RemovedSessions {
		if _, err := delSession.ExecContext(ctx, id); err != nil {
			return s.wrap(op, err)
		}
	}
	upFile := tx.StmtContext(ctx, s.stmts.upsertFile)
	for _, f := range files {
		st := f.st
		if _, err := upFile.ExecContext(ctx, st.Path, st.Session, string(st.Agent), st.Offset, f.state, now); err != nil {
			return s.wrap(op, err)
		}
	}
	if sessions, err = s.keepWaiting(ctx, tx, sessions); err != nil {
		return s.wrap(op, err)
	}
	upSession := tx.StmtContext(ctx, s.stmts.upsertSession)
	for _, r := range sessions {
		rec := r.rec
		if _, err := upSession.ExecContext(ctx, rec.ID, string(rec.Agent), rec.Project, rec.Title,
			column.Time(rec.StartedAt), column.Time(rec.LastActivity), r.json, now); err != nil {
			return s.wrap(op, err)
		}
	}
	if err := s.putMarkers(ctx, tx, markers, now); err != nil {
		return s.wrap(op, err)
	}
	if err := tx.Commit(); err != nil {
		return s.wrap(op, err)
	}
	for i, r := range sessions {
		b.Sessions[i] = *r.rec
	}
	return nil
}

func encodeBatch(b tally.Batch) ([]fileRow, []sessionRow, error) {
	const op = "sqlite.Commit"
	files := make([]fileRow, 0, len(b.Files))
	for i, st := range b.Files {
		if st == nil || st.Path == "" {
			return nil, nil, tally.Errorf(tally.CodeInvalid, op, "file %d of the batch has no path; nothing was written", i)
		}
		js, err := json.Marshal(st)
		if err != nil {
			return nil, nil, tally.Errorf(tally.CodeInvalid, op, "file %s cannot be stored (%v); nothing was written", st.Path, err)
		}
		files = append(files, fileRow{st: st, state: string(js)})
	}
	sessions := make([]sessionRow, 0, len(b.Sessions))
	for i := range b.Sessions {
		rec := &b.Sessions[i]
		if rec.ID == "" {
			return nil, nil, tally.Errorf(tally.CodeInvalid, op, "session %d of the batch has no id; nothing was written", i)
		}
		js, err := json.Marshal(rec)
		if err != nil {
			return nil, nil, tally.Errorf(tally.CodeInvalid, op, "session %s cannot be stored (%v); nothing was written", rec.ID, err)
		}
		sessions = append(sessions, sessionRow{rec: rec, json: string(js)})
	}
	for i, p := range b.RemovedFiles {
		if p == "" {
			return nil, nil, tally.Errorf(tally.CodeInvalid, op, "removed file %d of the batch has no path; nothing was written", i)
		}
	}
	for i, id := range b.RemovedSessions {
		if id == "" {
			return nil, nil, tally.Errorf(tally.CodeInvalid, op, "removed session %d of the batch has no id; nothing was written", i)
		}
	}
	return files, sessions, nil
}
