package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// AskRequest stores a new open request and shows it on its session's
// record, which takes the next change mark.
func (s *Store) AskRequest(ctx context.Context, r tally.Request) error {
	const op = "postgres.AskRequest"
	if r.ID == "" || r.Session == "" {
		return tally.Errorf(tally.CodeInvalid, op, "a request needs an id and a session")
	}
	if err := storable("request id", r.ID); err != nil {
		return tally.Errorf(tally.CodeInvalid, op, "%v", err)
	}
	if err := storable("session id", r.Session); err != nil {
		return tally.Errorf(tally.CodeInvalid, op, "%v", err)
	}
	r.Verdict = ""
	js, err := json.Marshal(&r)
	if err != nil {
		return tally.Errorf(tally.CodeInvalid, op, "%v", err)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q.requestPut, r.ID, r.Session, column.Time(r.AskedAt), string(js)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, q.requestsPrune, column.Time(time.Now().Add(-column.RequestAge))); err != nil {
			return err
		}
		return s.showRequests(ctx, tx, r.Session)
	})
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return tally.Errorf(tally.CodeConflict, op, "a request with id %s exists already", r.ID)
	}
	return s.wrap(op, err)
}

// Request returns a request by its id.
func (s *Store) Request(ctx context.Context, id string) (tally.Request, error) {
	const op = "postgres.Request"
	if storable("request id", id) != nil {
		return tally.Request{}, tally.Errorf(tally.CodeNotFound, op, "no request %q", id)
	}
	rows, err := s.pool.Query(ctx, q.requestGet, id)
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
	const op = "postgres.SessionRequests"
	if storable("session id", session) != nil {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, q.requestsOfSession, session)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	out, err := column.Requests(rows, s.skip)
	return out, s.wrap(op, err)
}

// DecideRequest applies d in one transaction holding the request's row
// lock from its read to its write, so of two decisions on any replica one
// is taken and the other finds it taken.
func (s *Store) DecideRequest(ctx context.Context, d tally.Decision) (tally.Request, error) {
	const op = "postgres.DecideRequest"
	if storable("request id", d.ID) != nil {
		return tally.Request{}, tally.Errorf(tally.CodeNotFound, op, "no request %q", d.ID)
	}
	var r tally.Request
	var refused error
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, q.requestLock, d.ID)
		if err != nil {
			return err
		}
		found, err := column.Requests(rows, s.skip)
		rows.Close()
		if err != nil {
			return err
		}
		if len(found) == 0 {
			refused = tally.Errorf(tally.CodeNotFound, op, "no request %q", d.ID)
			return refused
		}
		r = found[0]
		if err := r.Decide(d); err != nil {
			refused = err
			return err
		}
		return s.writeRequest(ctx, tx, &r)
	})
	if refused != nil {
		return tally.Request{}, refused
	}
	if err != nil {
		return tally.Request{}, s.wrap(op, err)
	}
	return r, nil
}

// CloseRequests marks the session's open requests answered at the agent.
func (s *Store) CloseRequests(ctx context.Context, session string, at time.Time) (int, error) {
	const op = "postgres.CloseRequests"
	if storable("session id", session) != nil {
		return 0, nil
	}
	open, err := s.SessionRequests(ctx, session)
	if err != nil || !anyOpen(open, at) {
		return 0, err // most calls: nothing to write
	}
	n := 0
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, r := range open {
			if !r.Open(at) {
				continue
			}
			rows, err := tx.Query(ctx, q.requestLock, r.ID)
			if err != nil {
				return err
			}
			found, err := column.Requests(rows, s.skip)
			rows.Close()
			if err != nil {
				return err
			}
			if len(found) == 0 || !found[0].Open(at) {
				continue // decided meanwhile
			}
			c := found[0]
			c.Verdict, c.DecidedAt = tally.VerdictElsewhere, at
			if err := s.writeRequest(ctx, tx, &c); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, s.wrap(op, err)
}

func anyOpen(reqs []tally.Request, at time.Time) bool {
	for i := range reqs {
		if reqs[i].Open(at) {
			return true
		}
	}
	return false
}

// writeRequest saves r and shows it on its session's record.
func (s *Store) writeRequest(ctx context.Context, tx pgx.Tx, r *tally.Request) error {
	js, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, q.requestUpdate, r.ID, string(js)); err != nil {
		return err
	}
	return s.showRequests(ctx, tx, r.Session)
}

// showRequests rewrites the session's stored record (if it has one) with
// its newest requests, with the next change mark, taken before the record
// is read (see resignal).
func (s *Store) showRequests(ctx context.Context, tx pgx.Tx, session string) error {
	top, err := takeMarks(ctx, tx, 1)
	if err != nil {
		return err
	}
	rows, err := tx.Query(ctx, q.requestsOfSession, session)
	if err != nil {
		return err
	}
	reqs, err := column.Requests(rows, s.skip)
	rows.Close()
	if err != nil || len(reqs) == 0 {
		return err
	}
	var js []byte
	err = tx.QueryRow(ctx, q.recordByID, session).Scan(new(string), &js)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	shown, ok := column.RecordOfRequests(session, js, err == nil, reqs, time.Now(), s.skip)
	if !ok {
		return nil
	}
	out, err := json.Marshal(shown)
	if err != nil {
		return err
	}
	var recs recordCols
	recs.add(shown, out)
	batch := &pgx.Batch{}
	queueRecords(batch, &recs, top)
	return tx.SendBatch(ctx, batch).Close()
}

// applyRequests shows, on the records of a commit or a push, their
// sessions' newest requests (column.ShowRequests), read from rows.
func applyRequests(c *recordCols, rows pgx.Rows, skip column.Skip) error {
	reqs, err := column.Requests(rows, skip)
	rows.Close()
	if err != nil || len(reqs) == 0 {
		return err
	}
	shown := column.BySession(reqs)
	for i, rec := range c.recs {
		r, changed := column.ShowRequests(rec, shown)
		if !changed {
			continue
		}
		js, err := json.Marshal(r)
		if err != nil {
			return err
		}
		c.recs[i], c.record[i] = r, string(js)
	}
	return nil
}
