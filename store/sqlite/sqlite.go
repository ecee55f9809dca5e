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
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/store/internal/column"
	"modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Store is the whole of the stores' contract: a store that lacks part of
// it does not build.
var _ store.Store = (*Store)(nil)

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
	lists listCache

	skips column.Skips

	// file is the database file as Open found it: a write checks the path
	// still names it (see checkFile).
	file os.FileInfo
	// writeMu guards the lazy preparation of the write statements: a
	// process that only reads never connects for writing, so a store it
	// cannot write is still read.
	writeMu  sync.Mutex
	writable bool
}

// DefaultPath is where the store lives unless told otherwise (--db,
// $TALLY_DB): xdgDataHome/tally/tally.db when that is an absolute path
// ($XDG_DATA_HOME), else ~/.local/share/tally/tally.db under home. The
// caller reads the environment (cli.Env); this reads nothing.
func DefaultPath(xdgDataHome, home string) (string, error) {
	if xdgDataHome != "" && filepath.IsAbs(xdgDataHome) {
		return filepath.Join(xdgDataHome, "tally", "tally.db"), nil
	}
	if home == "" {
		return "", tally.Errorf(tally.CodeUnavailable, "sqlite.DefaultPath", "no home directory to keep the store in (set TALLY_DB)")
	}
	return filepath.Join(home, ".local", "share", "tally", "tally.db"), nil
}

// Open opens the store at path, creating the file and its directory if
// needed and bringing the schema up to date. A database whose schema is
// newer than this build knows is refused. Reading needs no write: a store
// whose schema is current is opened without connecting for writing, so a
// store the process cannot write (another user's, on a read-only disk) is
// read; a write then fails saying the store cannot be written.
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
	// Nothing connects until the first write.
	s.w, err = sql.Open("sqlite", dsn(s.path, "_txlock=immediate", "_pragma=journal_mode(WAL)",
		"_pragma=synchronous(NORMAL)", "_pragma=cache_size(-4000)"))
	if err != nil {
		return s.wrap(op, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetConnMaxIdleTime(0)
	if fi, err := os.Stat(s.path); err != nil || fi.Size() == 0 {
		// A new store: it is made by writing it.
		if err := s.migrate(ctx, 0); err != nil {
			return err
		}
	}
	if err := s.openReaders(ctx); err != nil {
		return err
	}
	v, err := userVersion(ctx, s.r)
	if err != nil {
		return s.wrap(op, err)
	}
	if err := s.migrate(ctx, v); err != nil {
		return err
	}
	if s.file, err = os.Stat(s.path); err != nil {
		return tally.Errorf(tally.CodeUnavailable, op, "store %s: %v", s.path, err)
	}
	return s.wrap(op, s.stmts.prepareReads(ctx, s.r))
}

// openReaders opens the read pool. A store in WAL mode is read through
// its -shm and -wal files; where they are not there and cannot be made
// (a folder the process may not write), the store is read as it is on
// disk: read-only, and, failing that, as a file nobody changes while it
// is read (immutable), which is what a folder no one may write holds.
func (s *Store) openReaders(ctx context.Context) error {
	const op = "sqlite.Open"
	var first error
	for _, params := range [][]string{{"_query_only=1"}, {"mode=ro"}, {"mode=ro", "immutable=1"}} {
		r, err := sql.Open("sqlite", dsn(s.path, params...))
		if err != nil {
			return s.wrap(op, err)
		}
		r.SetMaxOpenConns(maxReaders)
		r.SetMaxIdleConns(maxReaders)
		if _, err = userVersion(ctx, r); err == nil {
			s.r = r
			return nil
		}
		r.Close()
		if first == nil {
			first = err
		}
		if !cannotWrite(err) {
			break
		}
	}
	return s.wrap(op, first)
}

// beginWrite begins a write transaction, checking first that the store's
// file is still the one opened and preparing the write statements the
// first time.
func (s *Store) beginWrite(ctx context.Context) (*sql.Tx, error) {
	if err := s.checkFile(); err != nil {
		return nil, err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if !s.writable {
		if err := s.stmts.prepareWrites(ctx, s.w); err != nil {
			var se *sqlite.Error
			if cannotWrite(err) && errors.As(err, &se) {
				return nil, tally.Errorf(tally.CodeUnavailable, "sqlite",
					"store %s cannot be written (%w), and this command writes it: make the file and its folder writable, or point --db (TALLY_DB) at another store", s.path, inWords(se))
			}
			return nil, err
		}
		s.writable = true
	}
	return s.w.BeginTx(ctx, nil)
}

// checkFile tells a store whose file was deleted or replaced since Open:
// what is written would go into a file nobody reads any more.
func (s *Store) checkFile() error {
	if s.file == nil {
		return nil // still opening
	}
	if fi, err := os.Stat(s.path); err != nil || !os.SameFile(fi, s.file) {
		return tally.Errorf(tally.CodeUnavailable, "sqlite", "the store %s was deleted or replaced while tally was using it: %w; start tally again to index into a new one", s.path, tally.ErrStoreGone)
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
