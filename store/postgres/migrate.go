package postgres

import (
	"context"
	"embed"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/migration"
)

// Migrations are numbered files, 001_init.sql, 002_….sql, applied in order,
// each in the same transaction as the row of tally_migrations that records
// it; the schema's version is the highest number recorded.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

var migrations = migration.MustLoad(migrationFS, "migrations")

// SchemaVersion is the schema this build writes: the number of the last
// migration.
func SchemaVersion() int { return len(migrations) }

// migrate brings the schema up to date in one transaction. Replicas that
// start at once on a new database take turns on an advisory lock; the
// later ones find nothing left to do. A schema already up to date is only
// read, so a role that may not create tables can still open the store.
func (s *Store) migrate(ctx context.Context) error {
	const op = "postgres.Open"
	v, err := s.schemaVersion(ctx)
	if err != nil {
		return s.wrap(op, err)
	}
	if v == SchemaVersion() {
		return nil
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q.migrateLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, q.migrationsTable); err != nil {
			return err
		}
		var v int
		if err := tx.QueryRow(ctx, q.schemaVersion).Scan(&v); err != nil {
			return err
		}
		if v > SchemaVersion() {
			return tally.Errorf(tally.CodeUnavailable, op,
				"database %s has schema version %d, newer than the %d this tally knows: upgrade tally, or name another database", s.name, v, SchemaVersion())
		}
		for _, m := range migrations[v:] {
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("migration %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, q.migrationDone, m.Version, m.Name); err != nil {
				return fmt.Errorf("migration %s: %w", m.Name, err)
			}
		}
		return nil
	})
	return s.wrap(op, err)
}

// schemaVersion reads the version without writing anything: 0 when no
// migration was ever applied.
func (s *Store) schemaVersion(ctx context.Context) (int, error) {
	var exists bool
	if err := s.pool.QueryRow(ctx, q.migrationsExist).Scan(&exists); err != nil || !exists {
		return 0, err
	}
	var v int
	err := s.pool.QueryRow(ctx, q.schemaVersion).Scan(&v)
	return v, err
}
