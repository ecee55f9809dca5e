package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/tallyhq/tally"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

var _ tally.Store = (*Store)(nil)

// BusyTimeout is how long a statement waits for another connection or
// process holding the write lock before it fails with CodeUnavailable.
// Commits are milliseconds long, so this is a generous margin.
const BusyTimeout = 5 * time.Second

// maxReaders bounds the read pool: the machine has few cores and every
// reader holds a page cache of its own.
const maxReaders = 4

// Store is the embedded store: one SQLite file in WAL mode.
type Store struct {
	path string
	// w has exactly one connection: every write, in this process, queues
	// on it rather than on SQLite's lock.
	w *sql.DB
	// r is a pool of query-only connections; in WAL mode they read a
	// committed snapshot while a commit is under way.
	r     *sql.DB
	stmts statements

	mu      sync.Mutex
	skipped int64
	recent  []tally.Diagnostic
}

// DefaultPath is where the store lives unless told otherwise: $TALLY_DB if
// set, else $XDG_DATA_HOME/tally/tally.db, else ~/.local/share/tally/tally.db.
func DefaultPath() (string, error) {
	if p := os.Getenv("TALLY_DB"); p != "" {
		return p, nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tally", "tally.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", tally.Errorf(tally.CodeUnavailable, "sqlite.DefaultPath", "no home directory to keep the store in (set TALLY_DB): %v", err)
	}
	return filepath.Join(home, ".local", "share", "tally", "tally.db"), nil
}

// Open opens the store at path, creating the file and its directory if
// needed and bringing the schema up to date. A database whose schema is
// newer than this build knows is refused.
func Open(ctx context.Context, path string) (*Store, error) {
	const op = "sqlite.Open"
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, tally.Errorf(tally.CodeInvalid, op, "store path %q: %v", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, tally.Errorf(tally.CodeUnavailable, op, "cannot create the directory of the store %s: %v", abs, err)
	}
	s := &Store{path: abs}
	if err := s.open(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) open(ctx context.Context) error {
	const op = "sqlite.Open"
	var err error
	// _txlock=immediate: a write transaction takes the write lock when it
	// begins, where busy_timeout can wait for it, instead of failing when
	// a read lock is upgraded half way through. Page caches stay small and
	// the file is not mapped: Tally runs beside the agents all day, and its
	// memory is to follow the sessions going on, not the size of the index.
	s.w, err = sql.Open("sqlite", dsn(s.path, "_txlock=immediate", "_pragma=journal_mode(WAL)",
		"_pragma=synchronous(NORMAL)", "_pragma=cache_size(-4000)"))
	if err != nil {
		return s.wrap(op, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetConnMaxIdleTime(0)
	if err := s.migrate(ctx); err != nil {
		return err
	}
	s.r, err = sql.Open("sqlite", dsn(s.path, "_query_only=1"))
	if err != nil {
		return s.wrap(op, err)
	}
	s.r.SetMaxOpenConns(maxReaders)
	s.r.SetMaxIdleConns(maxReaders)
	if err := s.stmts.prepare(ctx, s.w, s.r); err != nil {
		return s.wrap(op, err)
	}
	return nil
}

// dsn builds a file: URI, so a path holding '?' or '#' stays a path.
func dsn(path string, params ...string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), OmitHost: true}
	q := "_pragma=busy_timeout(" + strconv.FormatInt(BusyTimeout.Milliseconds(), 10) + ")"
	for _, p := range params {
		q += "&" + p
	}
	u.RawQuery = q
	return u.String()
}

// Path is the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// Close releases the connections. It is safe to call on a partly opened
// store.
func (s *Store) Close() error {
	var errs []error
	errs = append(errs, s.stmts.close())
	for _, db := range []*sql.DB{s.r, s.w} {
		if db != nil {
			errs = append(errs, db.Close())
		}
	}
	if err := errors.Join(errs...); err != nil {
		return s.wrap("sqlite.Close", err)
	}
	return nil
}
