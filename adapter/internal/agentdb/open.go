package agentdb

import (
	"context"
	"database/sql"
	"strings"

	"github.com/tallyhq/tally"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// busyTimeout is how long a read waits for the agent's writer: the agents
// commit small transactions, so two seconds is a stall, not a normal wait.
const busyTimeout = "2000"

// Reader is one read of an agent's database. Read fills it from the
// database inside the read's transaction; Events then turns what it read
// into each session's events. Both add to diags the rows they could not
// use.
type Reader interface {
	Read(ctx context.Context, tx *sql.Tx, diags *Diags) error
	Events(diags *Diags) map[string][]tally.Event
}

// ReadDatabase reads the database at path with r: it is what an adapter's
// tally.DatabaseReader method does, given the agent's Reader.
func (d DB) ReadDatabase(ctx context.Context, path string, r Reader) (map[string][]tally.Event, []tally.Diagnostic, error) {
	diags := Diags{Path: path}
	err := d.Read(ctx, path, func(ctx context.Context, tx *sql.Tx) error { return r.Read(ctx, tx, &diags) })
	if err != nil {
		return nil, nil, err
	}
	evs := r.Events(&diags)
	return evs, diags.List(), nil
}

// Read opens the database at path read-only and calls read inside one
// read transaction. The databases are in WAL mode, so the read sees the
// last commit without blocking the agent. Any error comes back through
// d.Error.
func (d DB) Read(ctx context.Context, path string, read func(context.Context, *sql.Tx) error) error {
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return d.Error(path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return d.Error(path, err)
	}
	defer tx.Rollback()
	if err := read(ctx, tx); err != nil {
		return d.Error(path, err)
	}
	return nil
}

// dsn is a file: URI for path. SQLite reads '?' and '#' as the end of the
// path and decodes %HH, so those three are escaped.
func dsn(path string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + esc + "?mode=ro&_pragma=busy_timeout(" + busyTimeout + ")"
}
