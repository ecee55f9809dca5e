package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

var requestSQL = struct {
	put, get, update, ofSession, recent, prune string
}{
	put:       mustQuery("request_put"),
	get:       mustQuery("request_get"),
	update:    mustQuery("request_update"),
	ofSession: mustQuery("requests_of_session"),
	recent:    mustQuery("requests_recent"),
	prune:     mustQuery("requests_prune"),
}

// AskRequest stores a new open request and shows it on its session's
// record, which takes a change mark.
func (s *Store) AskRequest(ctx context.Context, r tally.Request) error {
	const op = "sqlite.AskRequest"
	if r.ID == "" || r.Session == "" {
		return tally.Errorf(tally.CodeInvalid, op, "a request needs an id and a session")
	}
	r.Verdict = ""
	js, err := json.Marshal(&r)
	if err != nil {
		return tally.Errorf(tally.CodeInvalid, op, "%v", err)
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if _, err := tx.ExecContext(ctx, requestSQL.put, r.ID, r.Session, column.Time(r.AskedAt), string(js)); err != nil {
		if strings.Contains(err.Error(), "UNIQUE constraint") {
			return tally.Errorf(tally.CodeConflict, op, "a request with id %s exists already", r.ID)
		}
		return s.wrap(op, err)
	}
	if _, err := tx.ExecContext(ctx, requestSQL.prune, column.Time(time.Now().Add(-column.RequestAge))); err != nil {
		return s.wrap(op, err)
	}
	if err := s.showRequests(ctx, tx, r.Session); err != nil {
		return s.wrap(op, err)
	}
	return s.wrap(op, tx.Commit())
}

// Request returns a request by its id.
func (s *Store) Request(ctx context.Context, id string) (tally.Request, error) {
	const op = "sqlite.Request"
	rows, err := s.r.QueryContext(ctx, requestSQL.get, id)
	if err != nil {
		return tally.Request{}, s.wrap(op, err)
	}
	defer rows.Close()
	out, err := column.Requests(rows, s.skip)
	if err != nil {
		return tally.Request{}, s.wrap(op, err)
	}
	if len(out) == 0 {
		return tally.Request{}, tally.Errorf(tally.CodeNotFound, op, "no request %q", id)
	}
	return out[0], nil
}

// SessionRequests are a session's requests, newest first.
func (s *Store) SessionRequests(ctx context.Context, session string) ([]tally.Request, error) {
	const op = "sqlite.SessionRequests"
	rows, err := s.r.QueryContext(ctx, requestSQL.ofSession, session)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	out, err := column.Requests(rows, s.skip)
	return out, s.wrap(op, err)
}

// DecideRequest applies d in one write transaction: the row read and
// written under the store's write lock, so a decision is taken once.
func (s *Store) DecideRequest(ctx context.Context, d tally.Decision) (tally.Request, error) {
	const op = "sqlite.DecideRequest"
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return tally.Request{}, s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	rows, err := tx.QueryContext(ctx, requestSQL.get, d.ID)
	if err != nil {
		return tally.Request{}, s.wrap(op, err)
	}
	found, err := column.Requests(rows, s.skip)
	rows.Close()
	if err != nil {
		return tally.Request{}, s.wrap(op, err)
	}
	if len(found) == 0 {
		return tally.Request{}, tally.Errorf(tally.CodeNotFound, op, "no request %q", d.ID)
	}
	r := found[0]
	if err := r.Decide(d); err != nil {
		return tally.Request{}, err
	}
	if err := s.writeRequest(ctx, tx, &r); err != nil {
		return tally.Request{}, s.wrap(op, err)
	}
	return r, s.wrap(op, tx.Commit())
}

// CloseRequests marks the session's open requests answered at the agent.
func (s *Store) CloseRequests(ctx context.Context, session string, at time.Time) (int, error) {
	const op = "sqlite.CloseRequests"
	open, err := s.openRequests(ctx, s.r, session, at)
	if err != nil || len(open) == 0 {
		return 0, s.wrap(op, err) // most calls: nothing to write
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return 0, s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if open, err = s.openRequests(ctx, tx, session, at); err != nil {
		return 0, s.wrap(op, err)
	}
	for i := range open {
		open[i].Verdict, open[i].DecidedAt = tally.VerdictElsewhere, at
		if err := s.writeRequest(ctx, tx, &open[i]); err != nil {
			return 0, s.wrap(op, err)
		}
	}
	return len(open), s.wrap(op, tx.Commit())
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (s *Store) openRequests(ctx context.Context, db querier, session string, at time.Time) ([]tally.Request, error) {
	rows, err := db.QueryContext(ctx, requestSQL.ofSession, session)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	all, err := column.Requests(rows, s.skip)
	var open []tally.Request
	for _, r := range all {
		if r.Open(at) {
			open = append(open, r)
		}
	}
	return open, err
}

// writeRequest saves r and shows it on its session's record.
func (s *Store) writeRequest(ctx context.Context, tx *sql.Tx, r *tally.Request) error {
	js, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, requestSQL.update, r.ID, string(js)); err != nil {
		return err
	}
	return s.showRequests(ctx, tx, r.Session)
}

// showRequests rewrites the session's stored record (if it has one) with
// its newest requests, taking a change mark.
func (s *Store) showRequests(ctx context.Context, tx *sql.Tx, session string) error {
	rows, err := tx.QueryContext(ctx, requestSQL.ofSession, session)
	if err != nil {
		return err
	}
	reqs, err := column.Requests(rows, s.skip)
	rows.Close()
	if err != nil || len(reqs) == 0 {
		return err
	}
	var js []byte
	err = tx.QueryRowContext(ctx, hookSQL.record, session).Scan(new(string), &js)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	shown, ok := column.RecordOfRequests(session, js, err == nil, reqs, time.Now(), s.skip)
	if !ok {
		return nil
	}
	return s.upsertRecord(ctx, tx, shown)
}

// withRequests shows, on the records of a commit or a push, their
// sessions' newest requests (column.ShowRequests).
func (s *Store) withRequests(ctx context.Context, tx *sql.Tx, rows []sessionRow) ([]sessionRow, error) {
	if len(rows) == 0 {
		return rows, nil
	}
	q, err := tx.QueryContext(ctx, requestSQL.recent, column.Time(time.Now().Add(-column.RequestsShownFor)))
	if err != nil {
		return nil, err
	}
	reqs, err := column.Requests(q, s.skip)
	q.Close()
	if err != nil || len(reqs) == 0 {
		return rows, err
	}
	shown := column.BySession(reqs)
	out := append([]sessionRow(nil), rows...)
	for i, r := range rows {
		rec, changed := column.ShowRequests(r.rec, shown)
		if !changed {
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
