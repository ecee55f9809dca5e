package agentdb

import (
	"errors"

	"github.com/tallyhq/tally"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// DB is what an agent's database decoder shares with the others'.
// Embedded in it, DB makes it a tally.Decoder that refuses lines (a
// database holds every session and is read whole, with Sessions), and
// gives it Read, which opens the database, and Error, which names the
// agent when the database cannot be read.
type DB struct {
	// Name is the agent's name for people: "Hermes".
	Name string
	// Pkg prefixes the tally.Error ops: "hermes" gives hermes.Sessions
	// for a failed read and hermes.Line for a refused line.
	Pkg string
	// File is the database's name for people: "state.db".
	File string
}

func (d DB) Line([]byte, int64, func(tally.Event)) error {
	return tally.Errorf(tally.CodeInvalid, d.Pkg+".Line", "%s is a SQLite database: it is read whole with Sessions, not line by line", d.File)
}

func (DB) State() []byte { return nil }

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
	return tally.Errorf(code, d.Pkg+".Sessions", "%s: %w%s", path, err, hint)
}
