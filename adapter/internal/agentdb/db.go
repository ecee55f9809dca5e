package agentdb

import (
	"errors"

	"github.com/tallyhq/tally"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// DB is one agent's kind of database, as the adapters of such agents
// share it: ReadDatabase reads one with the agent's Reader (it is what the
// adapter's tally.DatabaseReader method does), Read opens it, and Error
// names the agent when it cannot be read.
type DB struct {
	// Name is the agent's name for people: "Hermes".
	Name string
	// Pkg prefixes the tally.Error ops: "hermes" gives
	// hermes.ReadDatabase for a failed read.
	Pkg string
}

// Error says what went wrong with the database at path in words a user
// can act on: a file that is no database is CodeInvalid, a lock held too
// long CodeUnavailable with the retry explained. A *tally.Error, which the
// adapter built knowing its schema, is returned as it is.
func (d DB) Error(path string, err error) error {
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
			hint = " (" + d.Name + " held the lock for over " + busyTimeout + " ms; the next change retries)"
		}
	}
	return tally.Errorf(code, d.Pkg+".ReadDatabase", "%s: %w%s", path, err, hint)
}
