package column

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/tallyhq/tally"
)

// Skip is told of a row a read passes over as damaged: its table, its key
// and what was wrong (Skips.Add with the store's name).
type Skip func(table, key string, err error)

// Changed reads rows of (id, record JSON, change mark): the records
// changed after since, and the mark of the last row read, from which the
// next read goes on. A damaged record is skipped, its mark still passed.
func Changed(rows Rows, since int64, skip Skip) ([]tally.Record, int64, error) {
	var out []tally.Record
	next := since
	for rows.Next() {
		var id string
		var js []byte
		var seq int64
		if err := rows.Scan(&id, &js, &seq); err != nil {
			return nil, since, err
		}
		next = max(next, seq)
		var rec tally.Record
		if err := json.Unmarshal(js, &rec); err != nil {
			skip("sessions", id, err)
			continue
		}
		out = append(out, rec)
	}
	if err := rows.Err(); err != nil {
		return nil, since, err
	}
	return out, next, nil
}

// FoundMarkers reads rows of (key, session, project, marker JSON).
func FoundMarkers(rows Rows, skip Skip) ([]tally.FoundMarker, error) {
	var out []tally.FoundMarker
	for rows.Next() {
		var m tally.FoundMarker
		var js []byte
		if err := rows.Scan(&m.Key, &m.Session, &m.Project, &js); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(js, &m.Marker); err != nil {
			skip("plan_markers", m.Key, err)
			continue
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// MarkerStates reads rows of (key, session, project, marker JSON,
// verdict, reason, plan, settled at): a marker with what became of it,
// settled at 0 or NULL while it is pending.
func MarkerStates(rows Rows, skip Skip) ([]tally.MarkerState, error) {
	var out []tally.MarkerState
	for rows.Next() {
		var m tally.MarkerState
		var js []byte
		var verdict string
		var settled *int64
		if err := rows.Scan(&m.Key, &m.Session, &m.Project, &js, &verdict, &m.Result.Reason, &m.Result.Plan, &settled); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(js, &m.Marker); err != nil {
			skip("plan_markers", m.Key, err)
			continue
		}
		if err := m.Result.Verdict.UnmarshalText([]byte(verdict)); err != nil {
			skip("plan_markers", m.Key, err)
			continue
		}
		m.Result.Key = m.Key
		if settled != nil && *settled != 0 {
			m.Result.At = time.Unix(0, *settled)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Token reads one row of (id, name, scope, created, machine, user) and,
// with hash set, the secret's hash after them. A scope word this build
// does not know allows nothing.
func Token(scan func(dest ...any) error, hash *[]byte) (tally.Token, error) {
	var t tally.Token
	var scope string
	var created int64
	dest := []any{&t.ID, &t.Name, &scope, &created, &t.Machine, &t.User}
	if hash != nil {
		dest = append(dest, hash)
	}
	if err := scan(dest...); err != nil {
		return tally.Token{}, err
	}
	t.Scope, _ = tally.ParseScope(scope)
	t.Created = time.Unix(0, created).UTC()
	return t, nil
}

// Tokens reads rows of tokens (Token without the hash).
func Tokens(rows Rows) ([]tally.Token, error) {
	var out []tally.Token
	for rows.Next() {
		t, err := Token(rows.Scan, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Wrap turns a database's error into a *tally.Error whose message names
// the database (where, "store /path" or "database name"), with the code
// and hint classify gives it. An error that already is a *tally.Error
// keeps its code.
func Wrap(op, where string, err error, classify func(error) (tally.Code, string)) error {
	if err == nil {
		return nil
	}
	var te *tally.Error
	if errors.As(err, &te) {
		return err
	}
	code, hint := classify(err)
	return tally.Errorf(code, op, "%s: %w%s", where, err, hint)
}
