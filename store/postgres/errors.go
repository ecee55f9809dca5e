package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// wrap turns a driver error into a *tally.Error whose message names the
// database. An error that already is a *tally.Error keeps its code.
func (s *Store) wrap(op string, err error) error {
	return column.Wrap(op, "database "+s.name, err, classify)
}

// classify maps what PostgreSQL or the connection reported to a code, with
// a hint for the failures a user can do something about.
func classify(err error) (tally.Code, string) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return tally.CodeUnavailable, ""
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch class := pe.Code[:2]; {
		case pe.Code == "3D000":
			return tally.CodeUnavailable, " (create the database, or name another in the URL)"
		case class == "28":
			return tally.CodeUnavailable, " (check the user and password in the URL)"
		case pe.Code == "42501":
			return tally.CodeUnavailable, " (the user lacks a privilege tally needs on this database)"
		case class == "08", class == "53", class == "57", class == "40":
			// Connection trouble, no resources, an administrator's shutdown,
			// a transaction the server rolled back: try again later.
			return tally.CodeUnavailable, ""
		case class == "22":
			return tally.CodeInvalid, ""
		}
		return tally.CodeInternal, ""
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	if errors.As(err, &ce) || errors.As(err, &ne) || pgconn.SafeToRetry(err) {
		return tally.CodeUnavailable, " (is the server running, and the URL right?)"
	}
	return tally.CodeInternal, ""
}

// storable checks that a key can be stored in a text column as it is:
// PostgreSQL text holds valid UTF-8 without NUL.
func storable(what, key string) error {
	if strings.ContainsRune(key, 0) || !utf8.ValidString(key) {
		return fmt.Errorf("%s %q is not valid UTF-8 text without NUL, which PostgreSQL cannot store as a key", what, key)
	}
	return nil
}

// textCol makes a copy of a JSON field fit a text column: NUL dropped,
// invalid UTF-8 replaced. The JSON beside it keeps the value.
func textCol(s string) string {
	if !strings.ContainsRune(s, 0) && utf8.ValidString(s) {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
}
