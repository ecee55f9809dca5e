package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// MinPrefix is the shortest id prefix Session accepts: shorter ones match
// too much to be what anyone meant.
const MinPrefix = 4

// FileMarks returns every file's mark, by path. The marks are read out of
// the state JSON by SQLite itself: the lists are never decoded, so this
// costs memory by the number of files, not by their history.
func (s *Store) FileMarks(ctx context.Context) ([]tally.FileMark, error) {
	const op = "sqlite.FileMarks"
	rows, err := s.stmts.files.QueryContext(ctx)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []tally.FileMark
	for rows.Next() {
		var m tally.FileMark
		var agent, last, head string
		var valid bool
		if err := rows.Scan(&m.Path, &m.Session, &agent, &m.Offset, &m.Identity, &head, &last, &m.Database, &valid); err != nil {
			return nil, s.wrap(op, err)
		}
		if !valid {
			s.skip("files", m.Path, errors.New("the saved state is not valid JSON"))
			continue
		}
		m.Agent = tally.Agent(agent)
		if m.Head, err = strconv.ParseUint(head, 10, 64); err != nil {
			s.skip("files", m.Path, err)
			continue
		}
		if last != "" {
			if m.LastAt, err = time.Parse(time.RFC3339Nano, last); err != nil {
				s.skip("files", m.Path, err)
				continue
			}
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	return out, nil
}

// File returns one file's saved state. A row whose state is not valid JSON
// is reported as CodeNotFound, so the indexer reads the file again from the
// start, which rewrites the row; the damage is also counted by Skipped.
func (s *Store) File(ctx context.Context, path string) (*tally.FileState, error) {
	const op = "sqlite.File"
	var state []byte
	err := s.stmts.fileByPath.QueryRowContext(ctx, path).Scan(&state)
	if err == sql.ErrNoRows {
		return nil, tally.Errorf(tally.CodeNotFound, op, "no saved state for %s", path)
	}
	if err != nil {
		return nil, s.wrap(op, err)
	}
	st := new(tally.FileState)
	if err := json.Unmarshal(state, st); err != nil {
		s.skip("files", path, err)
		return nil, tally.Errorf(tally.CodeNotFound, op, "the saved state of %s is damaged (%v); it is read again from the start", path, err)
	}
	st.Path = path // the key is the truth: the JSON copy may be stale
	return st, nil
}

// Records lists records newest activity first (ties by id, descending).
// Rows whose record is not valid JSON are skipped and reported by Skipped.
func (s *Store) Records(ctx context.Context, f tally.SessionFilter) ([]tally.Record, error) {
	const op = "sqlite.Records"
	limit := int64(-1)
	if f.Limit > 0 {
		limit = int64(f.Limit)
	}
	since := int64(math.MinInt64)
	if !f.Since.IsZero() {
		since = column.Time(f.Since)
	}
	var rows *sql.Rows
	var err error
	if f.Agent != "" {
		rows, err = s.stmts.sessionsAgent.QueryContext(ctx, string(f.Agent), f.Project, since, limit, f.Machine, f.User)
	} else {
		rows, err = s.stmts.sessions.QueryContext(ctx, f.Project, since, limit, f.Machine, f.User)
	}
	if err != nil {
		return nil, s.wrap(op, err)
	}
	recs, err := s.scanRecords(rows)
	return recs, s.wrap(op, err)
}

// Record finds one record by exact id, else by a unique prefix of at
// least MinPrefix characters.
func (s *Store) Record(ctx context.Context, id string) (tally.Record, error) {
	const op = "sqlite.Record"
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
			// Not the caller's mistake (CodeInvalid is a bad request):
			// the record cannot be had until it is rewritten.
			return tally.Record{}, tally.Errorf(tally.CodeUnavailable, op,
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
	const op = "sqlite.Record"
	upper, bounded := prefixEnd(prefix)
	if !bounded {
		// Only a prefix of 0xff bytes has no end; no valid UTF-8 id has it.
		return tally.Record{}, tally.Errorf(tally.CodeNotFound, op, "no session %q", prefix)
	}
	rows, err := s.stmts.sessionByPrefix.QueryContext(ctx, prefix, upper, tally.PrefixCandidates+1)
	if err != nil {
		return tally.Record{}, s.wrap(op, err)
	}
	recs, err := s.scanRecords(rows)
	if err != nil {
		return tally.Record{}, s.wrap(op, err)
	}
	return tally.OneByPrefix(op, prefix, recs)
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
	return scanJSON[tally.Record](s, rows, "sessions", nil)
}

// scanJSON decodes rows of (key, JSON) into values, closing rows. A row
// whose JSON is damaged is skipped and counted (Skipped) under its table and
// key, or under label when it is given; set, if given, completes a value
// from its key.
func scanJSON[T any](s *Store, rows *sql.Rows, table string, set func(key string, v *T), label ...string) ([]T, error) {
	defer rows.Close()
	return column.JSON(rows, func(key string, err error) {
		if len(label) > 0 {
			key = label[0]
		}
		s.skip(table, key, err)
	}, set)
}

// Changed returns the records written after change mark since, oldest
// first, and the newest mark.
func (s *Store) Changed(ctx context.Context, since int64) ([]tally.Record, int64, error) {
	return s.ChangedLimit(ctx, since, 0)
}

// ChangedLimit is Changed for at most limit records (0: no limit): the
// oldest changes first, and the mark of the last returned, from which the
// next read goes on. A reader (tally push) reads the changes of a long
// history a page at a time.
func (s *Store) ChangedLimit(ctx context.Context, since int64, limit int) ([]tally.Record, int64, error) {
	const op = "sqlite.Changed"
	// A live reader asks this every moment: it is where a store deleted
	// under it is noticed when nothing is written.
	if err := s.checkFile(); err != nil {
		return nil, since, err
	}
	lim := int64(-1)
	if limit > 0 {
		lim = int64(limit)
	}
	rows, err := s.stmts.changed.QueryContext(ctx, since, lim)
	if err != nil {
		return nil, since, s.wrap(op, err)
	}
	defer rows.Close()
	out, next, err := column.Changed(rows, since, s.skip)
	return out, next, s.wrap(op, err)
}

// ChangeMark is the newest change mark (an index lookup: sessions_seq).
func (s *Store) ChangeMark(ctx context.Context) (int64, error) {
	var mark int64
	err := s.stmts.changeMark.QueryRowContext(ctx).Scan(&mark)
	return mark, s.wrap("sqlite.ChangeMark", err)
}
