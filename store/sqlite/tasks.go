package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
	"github.com/tallyhq/tally/tasks"
)

// Task-list queries. They run as text rather than prepared statements:
// a tool call is one short transaction, and statements.go belongs to the
// indexer's hot path.
var taskSQL = struct {
	get, put, all, archivePut, archiveList          string
	items, itemsAll, itemPut, itemDelete, itemsDrop string
}{
	get:         mustQuery("task_list_get"),
	put:         mustQuery("task_list_put"),
	all:         mustQuery("task_list_all"),
	archivePut:  mustQuery("task_archive_put"),
	archiveList: mustQuery("task_archive_list"),
	items:       mustQuery("task_items_get"),
	itemsAll:    mustQuery("task_items_all"),
	itemPut:     mustQuery("task_item_put"),
	itemDelete:  mustQuery("task_item_delete"),
	itemsDrop:   mustQuery("task_items_clear_deleted"),
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
// what fn changed is written: the list's own row, the rows of the tasks
// that changed (a call costs what it changes, not the size of the list),
// and its tally.Record (session "tally:NAME", agent tally), so a running
// watch or dashboard shows the change; and if fn started a new
// generation, the finished one is archived.
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
	old, found, err := s.readTaskList(ctx, tx, name)
	if err != nil {
		return tasks.List{}, err
	}
	l := old.Clone()
	if err := fn(&l); err != nil {
		return tasks.List{}, err
	}
	l.Name = name
	now := time.Now().UnixNano()
	if found && l.Generation != old.Generation {
		js, err := json.Marshal(&old)
		if err != nil {
			return tasks.List{}, tally.Errorf(tally.CodeInvalid, op, "list %s cannot be archived: %v", name, err)
		}
		if _, err := tx.ExecContext(ctx, taskSQL.archivePut, name, old.Generation, string(js), now); err != nil {
			return tasks.List{}, s.wrap(op, err)
		}
	}
	rev := rand.Int64()
	row, err := writeTaskList(ctx, tx, &old, &l, rev, now)
	if err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	// The record is stored without its tasks: session_records adds them
	// from task_items for every reader.
	rec := l.Record()
	rec.Lists = nil
	rjs, err := json.Marshal(&rec)
	if err != nil {
		return tasks.List{}, tally.Errorf(tally.CodeInvalid, op, "list %s cannot be stored: %v", name, err)
	}
	if _, err := tx.StmtContext(ctx, s.stmts.upsertSession).ExecContext(ctx, rec.ID, string(rec.Agent), rec.Project, rec.Title,
		column.Time(rec.StartedAt), column.Time(rec.LastActivity), string(rjs), now); err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	if err := tx.Commit(); err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	s.lists.put(name, rev, row, l.Clone())
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

// readTaskList reads one list in tx; found is false for a list never
// written. The list this process committed or read last at the same
// revision is taken as it is, without reading its tasks again.
func (s *Store) readTaskList(ctx context.Context, tx *sql.Tx, name string) (l tasks.List, found bool, err error) {
	const op = "sqlite.TaskList"
	var head []byte
	var rev int64
	err = tx.QueryRowContext(ctx, taskSQL.get, name).Scan(&head, &rev)
	if errors.Is(err, sql.ErrNoRows) {
		return tasks.List{Name: name}, false, nil
	}
	if err != nil {
		return tasks.List{}, false, s.wrap(op, err)
	}
	if l, ok := s.lists.get(name, rev, head); ok {
		return l, true, nil
	}
	rows, err := tx.QueryContext(ctx, taskSQL.items, name)
	if err != nil {
		return tasks.List{}, false, s.wrap(op, err)
	}
	items, err := scanItems(rows, name)
	if err != nil {
		return tasks.List{}, false, s.wrap(op, err)
	}
	l, err = assemble(name, head, items[name])
	if err != nil {
		s.skip("task_lists", name, err)
		// Overwriting it would lose the tasks for good: refuse, and say so.
		return tasks.List{}, false, tally.Errorf(tally.CodeUnavailable, op,
			"store %s: task list %s is damaged (%v); repair or delete its rows in task_lists and task_items", s.path, name, err)
	}
	s.lists.put(name, rev, head, l)
	return l, true, nil
}

// TaskList returns the list name as last committed, CodeNotFound if no
// tool call or command has made it.
func (s *Store) TaskList(ctx context.Context, name string) (tasks.List, error) {
	const op = "sqlite.TaskList"
	if err := tasks.CheckName(name); err != nil {
		return tasks.List{}, err
	}
	// One read transaction: the list's row and its tasks' rows are of
	// the same commit.
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // read only
	l, found, err := s.readTaskList(ctx, tx, name)
	if err == nil && !found {
		err = tally.Errorf(tally.CodeNotFound, op, "no task list %q", name)
	}
	if err != nil {
		return tasks.List{}, err
	}
	return l.Clone(), nil
}

// TaskLists returns every list, the most recently changed first. Damaged
// lists are skipped and counted (see Skipped).
func (s *Store) TaskLists(ctx context.Context) ([]tasks.List, error) {
	const op = "sqlite.TaskLists"
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer tx.Rollback() //nolint:errcheck // read only
	rows, err := tx.QueryContext(ctx, taskSQL.all)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	type head struct {
		name string
		list []byte
		rev  int64
	}
	var heads []head
	for rows.Next() {
		var h head
		if err := rows.Scan(&h.name, &h.list, &h.rev); err != nil {
			rows.Close()
			return nil, s.wrap(op, err)
		}
		heads = append(heads, h)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, s.wrap(op, err)
	}
	if rows, err = tx.QueryContext(ctx, taskSQL.itemsAll); err != nil {
		return nil, s.wrap(op, err)
	}
	items, err := scanItems(rows, "")
	if err != nil {
		return nil, s.wrap(op, err)
	}
	out := make([]tasks.List, 0, len(heads))
	for _, h := range heads {
		if l, ok := s.lists.get(h.name, h.rev, h.list); ok {
			out = append(out, l.Clone())
			continue
		}
		l, err := assemble(h.name, h.list, items[h.name])
		if err != nil {
			s.skip("task_lists", h.name, err)
			continue
		}
		out = append(out, l)
	}
	return out, nil
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
