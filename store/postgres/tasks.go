package postgres

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// UpdateTaskList runs fn on the list name in one transaction that holds
// the list's row lock from its read to its commit, and returns the list as
// committed. Calls on one list — from this process, another replica, or
// tally mcp on another machine — are serialised on that lock: fn always
// sees the last committed list, and nothing commits in between. A list
// that does not exist yet reaches fn as the zero tasks.List with its name.
//
// If fn fails, nothing is written and its error is returned as is. Else
// the list and its tally.Record (session "tally:NAME", agent tally) are
// written together with the next change mark, so every replica's watch
// and dashboard show the change; and if fn started a new generation, the
// finished one is archived.
func (s *Store) UpdateTaskList(ctx context.Context, name string, fn func(*tasks.List) error) (tasks.List, error) {
	const op = "postgres.UpdateTaskList"
	if err := tasks.CheckName(name); err != nil {
		return tasks.List{}, err
	}
	var out tasks.List
	var refused error // fn's own error, returned as it is
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q.taskClaim, name); err != nil {
			return err
		}
		var raw []byte
		if err := tx.QueryRow(ctx, q.taskLock, name).Scan(&raw); err != nil {
			return err
		}
		l, err := s.decodeList(name, raw)
		if err != nil {
			return err
		}
		gen := l.Generation
		if err := fn(&l); err != nil {
			refused = err
			return err
		}
		l.Name = name
		js, err := json.Marshal(&l)
		if err != nil {
			return tally.Errorf(tally.CodeInvalid, op, "list %s cannot be stored: %v", name, err)
		}
		rec := l.Record()
		rjs, err := json.Marshal(&rec)
		if err != nil {
			return tally.Errorf(tally.CodeInvalid, op, "list %s cannot be stored: %v", name, err)
		}
		// The list's row is locked; the change mark is taken last, so calls
		// on other lists and the indexer's commits wait for it only briefly.
		top, err := takeMarks(ctx, tx, 1)
		if err != nil {
			return err
		}
		batch := &pgx.Batch{}
		if raw != nil && l.Generation != gen {
			batch.Queue(q.archivePut, name, gen, string(raw))
		}
		batch.Queue(q.taskPut, name, string(js))
		var recs recordCols
		recs.add(&rec, rjs)
		queueRecords(batch, &recs, top)
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			return err
		}
		out = l
		return nil
	})
	if refused != nil {
		return tasks.List{}, refused
	}
	if err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	return out, nil
}

// decodeList reads a stored list; nil is a list not yet written.
func (s *Store) decodeList(name string, raw []byte) (tasks.List, error) {
	if raw == nil {
		return tasks.List{Name: name}, nil
	}
	var l tasks.List
	if err := json.Unmarshal(raw, &l); err != nil {
		s.skip("task_lists", name, err)
		// Overwriting it would lose the tasks for good: refuse, and say so.
		return tasks.List{}, tally.Errorf(tally.CodeUnavailable, "postgres.TaskList",
			"database %s: task list %s does not decode (%v); repair or delete its row in task_lists", s.name, name, err)
	}
	l.Name = name
	return l, nil
}

// TaskList returns the list name as last committed, CodeNotFound if no
// tool call or command has made it.
func (s *Store) TaskList(ctx context.Context, name string) (tasks.List, error) {
	const op = "postgres.TaskList"
	if err := tasks.CheckName(name); err != nil {
		return tasks.List{}, err
	}
	var raw []byte
	err := s.pool.QueryRow(ctx, q.taskGet, name).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return tasks.List{}, tally.Errorf(tally.CodeNotFound, op, "no task list %q", name)
	}
	if err != nil {
		return tasks.List{}, s.wrap(op, err)
	}
	return s.decodeList(name, raw)
}

// TaskLists returns every list, the most recently changed first. Damaged
// rows are skipped and counted (see Skipped).
func (s *Store) TaskLists(ctx context.Context) ([]tasks.List, error) {
	const op = "postgres.TaskLists"
	rows, err := s.pool.Query(ctx, q.taskAll)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	out, err := scanJSON(s, rows, "task_lists", func(name string, l *tasks.List) { l.Name = name })
	return out, s.wrap(op, err)
}

// ArchivedTaskLists returns the finished rounds of list name, oldest first.
func (s *Store) ArchivedTaskLists(ctx context.Context, name string) ([]tasks.List, error) {
	const op = "postgres.ArchivedTaskLists"
	rows, err := s.pool.Query(ctx, q.archiveList, name)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	out, err := scanJSON(s, rows, "task_archive", func(name string, l *tasks.List) { l.Name = name })
	return out, s.wrap(op, err)
}
