package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"strconv"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/migration"
)

// Migrations are numbered files, 001_init.sql, 002_….sql, applied in order.
// The number of the last one applied is the database's PRAGMA user_version,
// which is written in the same transaction as the migration itself.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

// migrations is the embedded list, checked once (see package migration).
var migrations = migration.MustLoad(migrationFS, "migrations")

// SchemaVersion is the schema this build writes: the number of the last
// migration.
func SchemaVersion() int { return len(migrations) }

// migrate brings the schema up to date from version v, as read. A schema
// already current needs no write, and none is made. Two processes opening
// a new database at once are safe: the version is read again inside the
// write transaction, and the second finds nothing left to do.
func (s *Store) migrate(ctx context.Context, v int) error {
	const op = "sqlite.Open"
	if err := s.checkVersion(v); err != nil || v == SchemaVersion() {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.needsWrite(v, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if v, err = userVersion(ctx, tx); err != nil {
		return s.wrap(op, err)
	}
	if err := s.checkVersion(v); err != nil {
		return err
	}
	for _, m := range migrations[v:] {
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			if cannotWrite(err) {
				return s.needsWrite(v, err)
			}
			return s.wrap(op, fmt.Errorf("migration %s: %w", m.Name, err))
		}
		// PRAGMA takes no bound parameters; the version is our own integer.
		if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(m.Version)); err != nil {
			return s.wrap(op, fmt.Errorf("migration %s: %w", m.Name, err))
		}
	}
	return s.wrap(op, tx.Commit())
}

// needsWrite is the error of a schema that must be brought up to date by
// a process that cannot write the store.
func (s *Store) needsWrite(v int, err error) error {
	if !cannotWrite(err) {
		return s.wrap("sqlite.Open", err)
	}
	what := fmt.Sprintf("has schema version %d and this tally needs %d", v, SchemaVersion())
	if v == 0 {
		what = "is new"
	}
	return tally.Errorf(tally.CodeUnavailable, "sqlite.Open",
		"store %s %s: bringing it up to date needs a write, and it cannot be written (%v). Run tally once as a user who can write it (tally scan), or point --db (TALLY_DB) at another store",
		s.path, what, inWords(err))
}

func (s *Store) checkVersion(v int) error {
	if v > SchemaVersion() {
		return tally.Errorf(tally.CodeUnavailable, "sqlite.Open",
			"store %s has schema version %d, newer than the %d this tally knows: upgrade tally, or set TALLY_DB to use another database", s.path, v, SchemaVersion())
	}
	return nil
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func userVersion(ctx context.Context, q queryer) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}
