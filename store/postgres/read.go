package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// MinPrefix is the shortest id prefix Record accepts: shorter ones match
// too much to be what anyone meant.
const MinPrefix = 4

// FileMarks returns every file's mark, by path. PostgreSQL reads the marks
// out of the state JSON: the lists are never sent, so this costs memory by
// the number of files, not by their history.
func (s *Store) FileMarks(ctx context.Context) ([]tally.FileMark, error) {
	const op = "postgres.FileMarks"
	rows, err := s.pool.Query(ctx, q.files)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []tally.FileMark
	for rows.Next() {
		var m tally.FileMark
		var agent, head, last string
		if err := rows.Scan(&m.Path, &m.Session, &agent, &m.Offset, &m.Identity, &head, &last, &m.Database); err != nil {
			return nil, s.wrap(op, err)
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
	return out, s.wrap(op, rows.Err())
}

// File returns one file's saved state. A row whose state does not decode
// is reported as CodeNotFound, so the indexer reads the file again from
// the start, which rewrites the row; the damage is also counted by
// Skipped.
func (s *Store) File(ctx context.Context, path string) (*tally.FileState, error) {
	const op = "postgres.File"
	if storable("path", path) != nil {
		return nil, tally.Errorf(tally.CodeNotFound, op, "no saved state for %s", path)
	}
	var state []byte
	err := s.pool.QueryRow(ctx, q.fileByPath, path).Scan(&state)
	if errors.Is(err, pgx.ErrNoRows) {
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
// Rows whose record does not decode are skipped and reported by Skipped.
func (s *Store) Records(ctx context.Context, f tally.SessionFilter) ([]tally.Record, error) {
	const op = "postgres.Records"
	sql, args := recordsQuery(f)
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	recs, err := scanJSON[tally.Record](s, rows, "sessions", nil)
	return recs, s.wrap(op, err)
}

// recordsQuery builds the listing for a filter from fixed parts: only the
// conditions the filter sets are in the text, so each combination is its
// own prepared statement whose plan can use the index that serves it —
// sessions_agent, sessions_machine or sessions_user walked backwards, else
// sessions_last_activity — and stop at the limit. The project filter is a
// substring match, which no b-tree serves; it is applied on the way.
func recordsQuery(f tally.SessionFilter) (string, []any) {
	var where []string
	var args []any
	cond := func(sql string, arg any) {
		args = append(args, arg)
		where = append(where, strings.Replace(sql, "?", "$"+strconv.Itoa(len(args)), 1))
	}
	if f.Agent != "" {
		cond("agent = ?", textCol(string(f.Agent)))
	}
	if f.Machine != "" {
		cond("origin_machine = ?", textCol(f.Machine))
	}
	if f.User != "" {
		cond("origin_user = ?", textCol(f.User))
	}
	if f.Project != "" {
		cond("strpos(project, ?) > 0", textCol(f.Project))
	}
	if !f.Since.IsZero() {
		cond("last_activity >= ?", column.Time(f.Since))
	}
	sql := "SELECT id, record FROM sessions"
	if len(where) > 0 {
		sql += " WHERE " + strings.Join(where, " AND ")
	}
	sql += " ORDER BY last_activity DESC, id DESC"
	if f.Limit > 0 {
		args = append(args, int64(f.Limit))
		sql += " LIMIT $" + strconv.Itoa(len(args))
	}
	return sql, args
}

// Record finds one record by exact id, else by a unique prefix of at
// least MinPrefix characters.
func (s *Store) Record(ctx context.Context, id string) (tally.Record, error) {
	const op = "postgres.Record"
	if id == "" {
		return tally.Record{}, tally.Errorf(tally.CodeInvalid, op, "no session id given")
	}
	if storable("id", id) != nil {
		return tally.Record{}, tally.Errorf(tally.CodeNotFound, op, "no session %q", id)
	}
	var js []byte
	err := s.pool.QueryRow(ctx, q.recordByID, id).Scan(new(string), &js)
	switch {
	case err == nil:
		var rec tally.Record
		if err := json.Unmarshal(js, &rec); err != nil {
			s.skip("sessions", id, err)
			// Not the caller's mistake (CodeInvalid is a bad request):
			// the record cannot be had until it is rewritten.
			return tally.Record{}, tally.Errorf(tally.CodeUnavailable, op,
				"session %s: the stored record is damaged (%v); it is rewritten when the session next changes", id, err)
		}
		return rec, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return tally.Record{}, s.wrap(op, err)
	}
	if len(id) < MinPrefix {
		return tally.Record{}, tally.Errorf(tally.CodeNotFound, op, "no session %q (a prefix needs at least %d characters)", id, MinPrefix)
	}
	return s.recordByPrefix(ctx, id)
}

func (s *Store) recordByPrefix(ctx context.Context, prefix string) (tally.Record, error) {
	const op = "postgres.Record"
	upper, bounded := prefixEnd(prefix)
	if !bounded {
		return tally.Record{}, tally.Errorf(tally.CodeNotFound, op, "no session %q", prefix)
	}
	rows, err := s.pool.Query(ctx, q.byPrefix, prefix, upper, tally.PrefixCandidates+1)
	if err != nil {
		return tally.Record{}, s.wrap(op, err)
	}
	recs, err := scanJSON[tally.Record](s, rows, "sessions", nil)
	if err != nil {
		return tally.Record{}, s.wrap(op, err)
	}
	return tally.OneByPrefix(op, prefix, recs)
}

// prefixEnd is the smallest valid UTF-8 string greater than every string
// that starts with prefix, in the byte order the "C" collation uses (the
// order of code points): the prefix with its last character advanced.
// It must stay valid UTF-8, or PostgreSQL refuses the parameter; hence a
// character, not a byte, is advanced, skipping the surrogates.
func prefixEnd(prefix string) (string, bool) {
	for p := prefix; p != ""; {
		r, size := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-size]
		switch {
		case r == utf8.MaxRune:
			continue
		case r == 0xD7FF:
			r = 0xE000
		default:
			r++
		}
		return p + string(r), true
	}
	return "", false
}

// scanJSON decodes rows of (key, JSON) into values, closing rows. A row
// whose JSON does not decode is skipped and counted (Skipped) under its
// table and key; set, if given, completes a value from its key.
func scanJSON[T any](s *Store, rows pgx.Rows, table string, set func(key string, v *T)) ([]T, error) {
	defer rows.Close()
	return column.JSON(rows, func(key string, err error) { s.skip(table, key, err) }, set)
}

// Changed returns the records written after change mark since, oldest
// first, and the newest mark. Because transactions that write records
// commit in the order of their marks, a mark returned here is never
// followed by a commit of a lower one: reading on from it misses nothing.
func (s *Store) Changed(ctx context.Context, since int64) ([]tally.Record, int64, error) {
	return s.ChangedLimit(ctx, since, 0)
}

// ChangedLimit is Changed for at most limit records (0: no limit): the
// oldest changes first, and the mark of the last returned, from which the
// next read goes on. A reader (tally push) reads the changes of a long
// history a page at a time.
func (s *Store) ChangedLimit(ctx context.Context, since int64, limit int) ([]tally.Record, int64, error) {
	const op = "postgres.Changed"
	var lim any // NULL: no limit
	if limit > 0 {
		lim = int64(limit)
	}
	rows, err := s.pool.Query(ctx, q.changed, since, lim)
	if err != nil {
		return nil, since, s.wrap(op, err)
	}
	defer rows.Close()
	out, next, err := column.Changed(rows, since, s.skip)
	return out, next, s.wrap(op, err)
}

// ChangeMark is the newest change mark.
func (s *Store) ChangeMark(ctx context.Context) (int64, error) {
	var mark int64
	err := s.pool.QueryRow(ctx, q.changeMark).Scan(&mark)
	return mark, s.wrap("postgres.ChangeMark", err)
}
