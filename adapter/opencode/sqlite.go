package opencode

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/tallyhq/tally"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// busyTimeout is how long a read waits for OpenCode's writer: it commits
// small transactions, so two seconds is a stall, not a normal wait.
const busyTimeout = "2000"

// openReadOnly opens the agent's live database for reading only: Tally
// never writes to another program's database, and mode=ro makes sure of it.
// The database is in WAL mode, so the read sees the last commit without
// blocking the agent.
func openReadOnly(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// dsn is a file: URI for path. SQLite reads '?' and '#' as the end of the
// path and decodes %HH, so those three are escaped.
func dsn(path string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + esc + "?mode=ro&_pragma=busy_timeout(" + busyTimeout + ")"
}

// columns lists the columns of table; an empty set means no such table.
// OpenCode adds columns as its schema grows, so optional ones are looked up
// rather than assumed.
func columns(ctx context.Context, tx *sql.Tx, table string) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := make(map[string]bool)
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		cols[name] = true
	}
	return cols, rows.Err()
}

// dbError says what went wrong with path in words a user can act on.
func dbError(path string, err error) error {
	var te *tally.Error
	if errors.As(err, &te) {
		return err
	}
	code := tally.CodeUnavailable
	hint := ""
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
			code, hint = tally.CodeInvalid, " (not a readable SQLite database)"
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
			hint = " (OpenCode held the lock for over " + busyTimeout + " ms; the next change retries)"
		}
	}
	return tally.Errorf(code, "opencode.Sessions", "%s: %w%s", path, err, hint)
}
