package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"strings"

	"github.com/tallyhq/tally"
)

// MinPrefix is the shortest id prefix Session accepts: shorter ones match
// too much to be what anyone meant.
const MinPrefix = 4

// maxCandidates bounds the ids an ambiguous prefix error names.
const maxCandidates = 5

// Files returns every file's saved state, by path. A row whose state is
// not valid JSON is skipped and reported by Skipped: the indexer then
// reads that file again from the start, which rewrites the row.
func (s *Store) Files(ctx context.Context) ([]*tally.FileState, error) {
	const op = "sqlite.Files"
	rows, err := s.stmts.files.QueryContext(ctx)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []*tally.FileState
	for rows.Next() {
		var path string
		var state []byte
		if err := rows.Scan(&path, &state); err != nil {
			return nil, s.wrap(op, err)
		}
		st := new(tally.FileState)
		if err := json.Unmarshal(state, st); err != nil {
			s.skip("files", path, err)
			continue
		}
		st.Path = path // the key is the truth: the JSON copy may be stale
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}

// Sessions lists records newest activity first (ties by id, descending).
// Rows whose record is not valid JSON are skipped and reported by Skipped.
func (s *Store) Sessions(ctx context.Context, f tally.SessionFilter) ([]tally.Record, error) {
	const op = "sqlite.Sessions"
	limit := int64(-1)
	if f.Limit > 0 {
		limit = int64(f.Limit)
	}
	since := int64(math.MinInt64)
	if !f.Since.IsZero() {
		since = timeCol(f.Since)
	}
	var rows *sql.Rows
	var err error
	if f.Agent != "" {
		rows, err = s.stmts.sessionsAgent.QueryContext(ctx, string(f.Agent), f.Project, since, limit)
	} else {
		rows, err = s.stmts.sessions.QueryContext(ctx, f.Project, since, limit)
	}
	if err != nil {
		return nil, s.wrap(op, err)
	}
	recs, err := s.scanRecords(rows)
	return recs, s.wrap(op, err)
}

// Session finds one record by exact id, else by a unique prefix of at
// least MinPrefix characters.
func (s *Store) Session(ctx context.Context, id string) (tally.Record, error) {
	const op = "sqlite.Session"
	if id == "" {
		return tally.Record{}, tally.Errorf(tally.CodeInvalid, op, "no session id given")
	}
	var rec tally.Record
	var js []byte
	err := s.stmts.sessionByID.QueryRowContext(ctx, id).Scan(new(string), &js)
	switch {
	case err == nil:
		if err := json.Unmarshal(js, &rec); err != nil {
			s.skip("sessions", id, err)
			return tally.Record{}, tally.Errorf(tally.CodeInvalid, op,
				"session %s: the stored record is damaged (%v); it is rewritten when the session next changes", id, err)
		}
		return rec, nil
	case err != sql.ErrNoRows:
		return tally.Record{}, s.wrap(op, err)
	}
	if len(id) < MinPrefix {
		return tally.Record{}, tally.Errorf(tally.CodeNotFound, op, "no session %q (a prefix needs at least %d characters)", id, MinPrefix)
	}
	return s.sessionByPrefix(ctx, id)
}

func (s *Store) sessionByPrefix(ctx context.Context, prefix string) (tally.Record, error) {
	const op = "sqlite.Session"
	upper, bounded := prefixEnd(prefix)
	if !bounded {
		// Only a prefix of 0xff bytes has no end; no valid UTF-8 id has it.
		return tally.Record{}, tally.Errorf(tally.CodeNotFound, op, "no session %q", prefix)
	}
	rows, err := s.stmts.sessionByPrefix.QueryContext(ctx, prefix, upper, maxCandidates+1)
	if err != nil {
		return tally.Record{}, s.wrap(op, err)
	}
	recs, err := s.scanRecords(rows)
	if err != nil {
		return tally.Record{}, s.wrap(op, err)
	}
	switch len(recs) {
	case 0:
		return tally.Record{}, tally.Errorf(tally.CodeNotFound, op, "no session %q", prefix)
	case 1:
		return recs[0], nil
	}
	ids := make([]string, 0, len(recs))
	for i := range recs {
		if i == maxCandidates {
			ids = append(ids, "…")
			break
		}
		ids = append(ids, recs[i].ID)
	}
	return tally.Record{}, tally.Errorf(tally.CodeConflict, op,
		"session prefix %q is ambiguous: it matches %s; give more characters", prefix, strings.Join(ids, ", "))
}

// prefixEnd is the smallest string greater than every string starting with
// prefix, in SQLite's byte-wise order.
func prefixEnd(prefix string) (string, bool) {
	b := []byte(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

func (s *Store) scanRecords(rows *sql.Rows) ([]tally.Record, error) {
	defer rows.Close()
	var out []tally.Record
	for rows.Next() {
		var id string
		var js []byte
		if err := rows.Scan(&id, &js); err != nil {
			return nil, err
		}
		var rec tally.Record
		if err := json.Unmarshal(js, &rec); err != nil {
			s.skip("sessions", id, err)
			continue
		}
		out = append(out, rec)
	}
	return out, rows.Err()
}

// Changed returns the records written after change mark since, oldest
// first, and the newest mark.
func (s *Store) Changed(ctx context.Context, since int64) ([]tally.Record, int64, error) {
	const op = "sqlite.Changed"
	rows, err := s.stmts.changed.QueryContext(ctx, since)
	if err != nil {
		return nil, since, s.wrap(op, err)
	}
	defer rows.Close()
	var out []tally.Record
	next := since
	for rows.Next() {
		var id string
		var js []byte
		var seq int64
		if err := rows.Scan(&id, &js, &seq); err != nil {
			return nil, since, s.wrap(op, err)
		}
		next = max(next, seq)
		var rec tally.Record
		if err := json.Unmarshal(js, &rec); err != nil {
			s.skip("sessions", id, err)
			continue
		}
		out = append(out, rec)
	}
	return out, next, s.wrap(op, rows.Err())
}
