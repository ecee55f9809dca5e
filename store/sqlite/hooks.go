package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// Hook queries run as text, like the task-list ones: one short
// transaction per hook call, off the indexer's hot path.
var hookSQL = struct {
	stateGet, statePut, statePrune, markPut, markDelete, marks, sessionFiles, record string
}{
	stateGet:     mustQuery("hook_state_get"),
	statePut:     mustQuery("hook_state_put"),
	statePrune:   mustQuery("hook_state_prune"),
	markPut:      mustQuery("needs_input_put"),
	markDelete:   mustQuery("needs_input_delete"),
	marks:        mustQuery("needs_input_all"),
	sessionFiles: mustQuery("files_of_session"),
	record:       mustQuery("session_by_id"),
}

// HookStateAge is how long a session's hook state is kept after its last
// hook call: past it the session is long over.
const HookStateAge = 30 * 24 * time.Hour

// UpdateHook runs fn on the session's saved hook state (nil if none) in one
// write transaction and saves the state fn returns (nil keeps the saved
// one). The transaction begins IMMEDIATE, so the hook processes of one
// session take turns and each sees the state the previous one wrote.
//
// The signal fn returns is what the call learned about the session at at:
// tally.SignalAsking marks it as waiting for its user (a permission or
// idle prompt), kept in needs_input and shown at once in the session's
// record (signal asking, last activity at), which bumps its change mark
// so live surfaces see it; tally.SignalWorking is activity, which ends
// such a mark; tally.SignalNone says nothing.
//
// It does not retry a busy lock: a hook has a deadline, and ctx carries it.
func (s *Store) UpdateHook(ctx context.Context, session string, at time.Time, fn func(saved []byte) ([]byte, tally.Signal, error)) error {
	const op = "sqlite.UpdateHook"
	if session == "" {
		return tally.Errorf(tally.CodeInvalid, op, "no session id")
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	var saved []byte
	if err := tx.QueryRowContext(ctx, hookSQL.stateGet, session).Scan(&saved); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return s.wrap(op, err)
	}
	state, sig, err := fn(saved)
	if err != nil {
		return err
	}
	now := time.Now()
	if state != nil {
		if _, err := tx.ExecContext(ctx, hookSQL.statePut, session, string(state), now.UnixNano()); err != nil {
			return s.wrap(op, err)
		}
		if _, err := tx.ExecContext(ctx, hookSQL.statePrune, now.Add(-HookStateAge).UnixNano()); err != nil {
			return s.wrap(op, err)
		}
	}
	switch sig {
	case tally.SignalAsking:
		if _, err := tx.ExecContext(ctx, hookSQL.markPut, session, column.Time(at)); err != nil {
			return s.wrap(op, err)
		}
		err = s.resignal(ctx, tx, session, tally.SignalAsking, at)
	case tally.SignalWorking:
		var res sql.Result
		if res, err = tx.ExecContext(ctx, hookSQL.markDelete, session); err != nil {
			return s.wrap(op, err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			err = s.resignal(ctx, tx, session, tally.SignalWorking, at)
		}
	case tally.SignalNone, tally.SignalWaiting, tally.SignalEnded:
	}
	if err != nil {
		return s.wrap(op, err)
	}
	return s.wrap(op, tx.Commit())
}

// resignal rewrites a stored record's signal as of at, if the record exists.
func (s *Store) resignal(ctx context.Context, tx *sql.Tx, session string, sig tally.Signal, at time.Time) error {
	var js []byte
	err := tx.QueryRowContext(ctx, hookSQL.record, session).Scan(new(string), &js)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	rec, ok := column.Resignal(session, js, sig, at, s.skip)
	if !ok {
		return nil
	}
	return s.upsertRecord(ctx, tx, &rec)
}

func (s *Store) upsertRecord(ctx context.Context, tx *sql.Tx, rec *tally.Record) error {
	js, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = tx.StmtContext(ctx, s.stmts.upsertSession).ExecContext(ctx, rec.ID, string(rec.Agent), rec.Project, rec.Title,
		column.Time(rec.StartedAt), column.Time(rec.LastActivity), string(js), time.Now().UnixNano())
	return err
}

// keepWaiting shows the sessions' requests on the records of a commit
// (withRequests) and applies the needs-input marks to them: a
// record whose last activity is not after its session's mark still waits
// for the user (the indexer folded lines written before the prompt); a
// record with newer activity ends the mark. It returns the rows to write,
// re-encoding those it changed; Commit gives them back to the caller once
// they are stored.
func (s *Store) keepWaiting(ctx context.Context, tx *sql.Tx, rows []sessionRow) ([]sessionRow, error) {
	if len(rows) == 0 {
		return rows, nil
	}
	rows, err := s.withRequests(ctx, tx, rows)
	if err != nil {
		return nil, err
	}
	marks, err := needsInputMarks(ctx, tx)
	if err != nil || len(marks) == 0 {
		return rows, err
	}
	out := append([]sessionRow(nil), rows...)
	for i, r := range rows {
		at, ok := marks[r.rec.ID]
		if !ok {
			continue
		}
		rec, ended := column.Waiting(r.rec, at)
		if ended {
			if _, err := tx.ExecContext(ctx, hookSQL.markDelete, r.rec.ID); err != nil {
				return nil, err
			}
			continue
		}
		js, err := json.Marshal(rec)
		if err != nil {
			return nil, err
		}
		out[i] = sessionRow{rec: rec, json: string(js)}
	}
	return out, nil
}

func needsInputMarks(ctx context.Context, tx *sql.Tx) (map[string]int64, error) {
	rows, err := tx.QueryContext(ctx, hookSQL.marks)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := make(map[string]int64)
	for rows.Next() {
		var id string
		var at int64
		if err := rows.Scan(&id, &at); err != nil {
			return nil, err
		}
		m[id] = at
	}
	return m, rows.Err()
}

// SessionFiles returns the saved states of every file of a session, by
// path. Damaged rows are skipped and counted (see Skipped).
func (s *Store) SessionFiles(ctx context.Context, session string) ([]*tally.FileState, error) {
	const op = "sqlite.SessionFiles"
	rows, err := s.r.QueryContext(ctx, hookSQL.sessionFiles, session)
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
