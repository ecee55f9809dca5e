package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/redact"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/store/internal/column"
)

// Store is the whole of the stores' contract (a store that lacks part of
// it does not build), and elects (tally.Elector), which only a store
// several processes share can.
var (
	_ store.Store   = (*Store)(nil)
	_ tally.Elector = (*Store)(nil)
)

// connectTimeout bounds connecting when the URL sets no connect_timeout:
// a server that does not answer is reported, not waited on for ever.
const connectTimeout = 10 * time.Second

// Store is the team store: one PostgreSQL database that any number of
// tally processes share.
type Store struct {
	pool *pgxpool.Pool
	// name is the URL without its password, for messages.
	name string
	w    *watcher

	skips column.Skips
}

// IsURL reports whether a --db value names a PostgreSQL database rather
// than a SQLite file: a postgres:// or postgresql:// URL.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Open connects to the database the URL names and brings its schema up to
// date. A database whose schema is newer than this build knows is
// refused. The URL is pgx's: postgres://user:password@host:port/db?sslmode=…,
// a unix socket folder as host=/path, any other setting as a parameter
// (search_path=tally keeps the tables in schema tally).
func Open(ctx context.Context, dbURL string) (*Store, error) {
	const op = "postgres.Open"
	s := &Store{name: redact.URL(dbURL)}
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, tally.Errorf(tally.CodeInvalid, op, "not a usable PostgreSQL URL: %v", err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "tally"
	}
	s.pool, err = pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	s.w = newWatcher(cfg.ConnConfig.Copy())
	if err := s.pool.Ping(ctx); err != nil {
		s.Close()
		return nil, s.wrap(op, err)
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Name is the database's URL without its password.
func (s *Store) Name() string { return s.name }

// Close stops the watch connection and closes the pool.
func (s *Store) Close() error {
	if s.w != nil {
		s.w.stop()
	}
	if s.pool != nil {
		s.pool.Close()
	}
	return nil
}
