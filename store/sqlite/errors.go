package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// wrap turns a driver error into a *tally.Error whose message names the
// database file, so "database is locked" says which database. An error
// that already is a *tally.Error keeps its code.
func (s *Store) wrap(op string, err error) error {
	return column.Wrap(op, "store "+s.path, inWords(err), classify)
}

// inWords is err without SQLite's number for it ("attempt to write a
// readonly database (1544)"): the number tells a person nothing the words
// do not, and the hint classify adds says what to do. The driver's error
// is kept beneath, for errors.As.
func inWords(err error) error {
	var se *sqlite.Error
	if err == nil || !errors.As(err, &se) {
		return err
	}
	return &wordsError{err: err, text: strings.Replace(err.Error(), se.Error(), strings.TrimSuffix(se.Error(), fmt.Sprintf(" (%d)", se.Code())), 1),
		readOnly: cannotWrite(err)}
}

// wordsError is a driver's error in words; one that says the store cannot
// be written is tally.ErrStoreReadOnly as well.
type wordsError struct {
	err      error
	text     string
	readOnly bool
}

func (e *wordsError) Error() string        { return e.text }
func (e *wordsError) Unwrap() error        { return e.err }
func (e *wordsError) Is(target error) bool { return e.readOnly && target == tally.ErrStoreReadOnly }

// classify maps what SQLite reported to a code, with a hint for the
// failures a user can do something about.
func classify(err error) (tally.Code, string) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return tally.CodeUnavailable, ""
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return tally.CodeInternal, ""
	}
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return tally.CodeUnavailable, " (another process held the lock for longer than " + BusyTimeout.String() + ")"
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM:
		return tally.CodeUnavailable, " (the store cannot be written: this command writes it. Make the file and its folder writable, or point --db (TALLY_DB) at another store)"
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL:
		return tally.CodeUnavailable, ""
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		return tally.CodeUnavailable, " (the file is not a usable tally database; move it away and tally rebuilds the index from the logs)"
	}
	return tally.CodeInternal, ""
}

// cannotWrite tells the failures of a store the process may not write: a
// read-only file, or a folder where its -wal and -shm cannot be made.
func cannotWrite(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN:
		return true
	}
	return false
}
