package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// Task-list queries. They run as text rather than prepared statements:
// a tool call is one short transaction, and statements.go belongs to the
// indexer's hot path.
var taskSQL = struct {
	get, put, all, archivePut, archiveList string
}{
	get:         mustQuery("task_list_get"),
	put:         mustQuery("task_list_put"),
	all:         mustQuery("task_list_all"),
	archivePut:  mustQuery("task_archive_put"),
	archiveList: mustQuery("task_archive_list"),
}

func mustQuery(name string) string {
	text, err := queryFS.ReadFile("sql/" + name + ".sql")
	if err != nil {
		panic(err) // the embedded files are part of the build
	}
	return strings.TrimSuffix(strings.TrimSpace(string(text)), ";")
}

// UpdateTaskList runs fn on the list name in one write transaction and
// returns the list as committed. The transaction begins IMMEDIATE, so
// calls of every process on the same database are serialised: fn always
// sees the last committed list and nothing commits in between. A list
// that does not exist yet reaches fn as the zero tasks.List with its name.
//
// If fn fails, nothing is written and its error is returned as is. Else
// the list and its tally.Record (session "tally:NAME", agent tally) are
// written together, so a running watch or dashboard shows the change; and
// if fn started a new generation, the finished one is archived.
func (s *Store) UpdateTaskList(ctx context.Context, name string, fn func(*tasks.List) error) (tasks.List, error) {
	const op = "sqlite.UpdateTaskList"
	if err := tasks.CheckName(name); err != nil {
		return tasks.List{}, err
	}
	tx, err := s.beginTasks(ctx)
	if err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	l, raw, err := s.readTaskList(ctx, tx, name)
	if err != nil {
		return tasks.List{}, err
	}
	gen := l.Generation
	if err := fn(&l); err != nil {
		return tasks.List{}, err
	}
	l.Name = name
	now := time.Now().UnixNano()
	if raw != nil && l.Generation != gen {
		if _, err := tx.ExecContext(ctx, taskSQL.archivePut, name, gen, string(raw), now); err != nil {
			return tasks.List{}, s.wrap(op, err)
		}
	}
	js, err := json.Marshal(&l)
	if err != nil {
		return tasks.List{}, tally.Errorf(tally.CodeInvalid, op, "list %s cannot be stored: %v", name, err)
	}
	if _, err := tx.ExecContext(ctx, taskSQL.put, name, string(js), now); err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	rec := l.Record()
	rjs, err := json.Marshal(&rec)
	if err != nil {
		return tasks.List{}, tally.Errorf(tally.CodeInvalid, op, "list %s cannot be stored: %v", name, err)
	}
	if _, err := tx.StmtContext(ctx, s.stmts.upsertSession).ExecContext(ctx, rec.ID, string(rec.Agent), rec.Project, rec.Title,
		timeCol(rec.StartedAt), timeCol(rec.LastActivity), string(rjs), now); err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	if err := tx.Commit(); err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	return l, nil
}

// taskBusyRetries: how many more times a tool call asks for the write lock
// after waiting BusyTimeout for it. SQLite's busy handler polls, so a
// process whose own writers keep the lock busy (tally serve with many
// sessions) can starve a tally mcp process for a while; a tool call would
// rather wait than fail.
const taskBusyRetries = 3

func (s *Store) beginTasks(ctx context.Context) (*sql.Tx, error) {
	for attempt := 0; ; attempt++ {
		tx, err := s.beginWrite(ctx)
		if err == nil || attempt == taskBusyRetries || ctx.Err() != nil || !isBusy(err) {
			return tx, err
		}
	}
}

func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_BUSY || se.Code()&0xff == sqlite3.SQLITE_LOCKED)
}

type rowQueryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readTaskList reads one list and its stored JSON (nil if there is none).
func (s *Store) readTaskList(ctx context.Context, q rowQueryer, name string) (tasks.List, []byte, error) {
	const op = "sqlite.TaskList"
	var raw []byte
	err := q.QueryRowContext(ctx, taskSQL.get, name).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return tasks.List{Name: name}, nil, nil
	}
	if err != nil {
		return tasks.List{}, nil, s.wrap(op, err)
	}
	var l tasks.List
	if err := json.Unmarshal(raw, &l); err != nil {
		s.skip("task_lists", name, err)
		// Overwriting it would lose the tasks for good: refuse, and say so.
		return tasks.List{}, nil, tally.Errorf(tally.CodeUnavailable, op,
			"store %s: task list %s is damaged (%v); repair or delete its row in task_lists", s.path, name, err)
	}
	l.Name = name
	return l, raw, nil
}

// TaskList returns the list name as last committed, CodeNotFound if no
// tool call or command has made it.
func (s *Store) TaskList(ctx context.Context, name string) (tasks.List, error) {
	if err := tasks.CheckName(name); err != nil {
		return tasks.List{}, err
	}
	l, raw, err := s.readTaskList(ctx, s.r, name)
	if err == nil && raw == nil {
		err = tally.Errorf(tally.CodeNotFound, "sqlite.TaskList", "no task list %q", name)
	}
	return l, err
}

// TaskLists returns every list, the most recently changed first. Damaged
// rows are skipped and counted (see Skipped).
func (s *Store) TaskLists(ctx context.Context) ([]tasks.List, error) {
	const op = "sqlite.TaskLists"
	rows, err := s.r.QueryContext(ctx, taskSQL.all)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	out, err := scanJSON(s, rows, "task_lists", func(name string, l *tasks.List) { l.Name = name })
	return out, s.wrap(op, err)
}

// ArchivedTaskLists returns the finished rounds of list name, oldest first.
func (s *Store) ArchivedTaskLists(ctx context.Context, name string) ([]tasks.List, error) {
	const op = "sqlite.ArchivedTaskLists"
	rows, err := s.r.QueryContext(ctx, taskSQL.archiveList, name)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	out, err := scanJSON[tasks.List](s, rows, "task_archive", nil, name)
	return out, s.wrap(op, err)
}
