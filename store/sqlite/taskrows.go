package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/tallyhq/tally/tasks"
)

// A task list is stored as rows: its own row in task_lists (listRow) and
// one row per task in task_items, keyed by (list, deleted, id): deleted is
// 0 for a live task and n for the n-th task deleted in this round. A call
// rewrites the list's small row and the rows of the tasks it changed.

// listRow is a list's row in task_lists: the list without its tasks.
type listRow struct {
	tasks.List
	// Order is the ids of the live tasks, in order.
	Order []string `json:"order"`
	// DeletedCount is how many tasks were deleted in this round.
	DeletedCount int `json:"deletedCount"`
}

// itemRow is one row of task_items.
type itemRow struct {
	deleted int
	id      string
	task    []byte
}

// scanItems reads rows of task_items by list, closing rows: the rows of
// list one, or, when one is "", of the list each row names first.
func scanItems(rows *sql.Rows, one string) (map[string][]itemRow, error) {
	defer rows.Close()
	out := make(map[string][]itemRow)
	for rows.Next() {
		list := one
		var it itemRow
		dst := []any{&it.deleted, &it.id, &it.task}
		if one == "" {
			dst = append([]any{&list}, dst...)
		}
		if err := rows.Scan(dst...); err != nil {
			return nil, err
		}
		out[list] = append(out[list], it)
	}
	return out, rows.Err()
}

// assemble makes a list of its row and its tasks' rows (the live ones
// first, then the deleted in order). Rows that do not fit each other are
// damage: the list cannot be had without losing tasks.
func assemble(name string, head []byte, items []itemRow) (tasks.List, error) {
	var h listRow
	if err := json.Unmarshal(head, &h); err != nil {
		return tasks.List{}, err
	}
	l := h.List
	l.Name = name
	l.Tasks, l.Deleted = nil, nil
	live := make(map[string]tasks.Task, len(h.Order))
	for _, it := range items {
		var t tasks.Task
		if err := json.Unmarshal(it.task, &t); err != nil {
			return tasks.List{}, fmt.Errorf("task %s: %w", it.id, err)
		}
		if it.deleted == 0 {
			live[it.id] = t
		} else {
			l.Deleted = append(l.Deleted, t)
		}
	}
	for _, id := range h.Order {
		t, ok := live[id]
		if !ok {
			return tasks.List{}, fmt.Errorf("task %s is listed but has no row", id)
		}
		l.Tasks = append(l.Tasks, t)
		delete(live, id)
	}
	if len(live) > 0 || len(l.Deleted) != h.DeletedCount {
		return tasks.List{}, fmt.Errorf("%d task rows are not in the list, and %d deleted tasks of %d have rows", len(live), len(l.Deleted), h.DeletedCount)
	}
	return l, nil
}

// writeTaskList writes l, which was old when the transaction read it: the
// list's row, and the rows of the tasks that are new, changed or gone.
// Deleted tasks are a log that a round only appends to, so only its new
// entries are written, unless a new round emptied it.
func writeTaskList(ctx context.Context, tx *sql.Tx, old, l *tasks.List, rev, now int64) (row []byte, err error) {
	head := listRow{List: *l, Order: make([]string, len(l.Tasks)), DeletedCount: len(l.Deleted)}
	head.List.Tasks, head.List.Deleted = nil, nil
	for i := range l.Tasks {
		head.Order[i] = l.Tasks[i].ID
	}
	row, err = json.Marshal(&head)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, taskSQL.put, l.Name, string(row), rev, now); err != nil {
		return nil, err
	}
	before := make(map[string]*tasks.Task, len(old.Tasks))
	for i := range old.Tasks {
		before[old.Tasks[i].ID] = &old.Tasks[i]
	}
	for i := range l.Tasks {
		t := &l.Tasks[i]
		if o, ok := before[t.ID]; ok {
			delete(before, t.ID)
			if reflect.DeepEqual(o, t) {
				continue
			}
		}
		if err := putItem(ctx, tx, l.Name, 0, t); err != nil {
			return nil, err
		}
	}
	for id := range before {
		if _, err := tx.ExecContext(ctx, taskSQL.itemDelete, l.Name, id); err != nil {
			return nil, err
		}
	}
	kept := len(old.Deleted)
	if len(l.Deleted) < kept || kept > 0 && !reflect.DeepEqual(old.Deleted, l.Deleted[:kept]) {
		if _, err := tx.ExecContext(ctx, taskSQL.itemsDrop, l.Name); err != nil {
			return nil, err
		}
		kept = 0
	}
	for i := kept; i < len(l.Deleted); i++ {
		if err := putItem(ctx, tx, l.Name, i+1, &l.Deleted[i]); err != nil {
			return nil, err
		}
	}
	return row, nil
}

func putItem(ctx context.Context, tx *sql.Tx, list string, deleted int, t *tasks.Task) error {
	js, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("task %s cannot be stored: %w", t.ID, err)
	}
	_, err = tx.ExecContext(ctx, taskSQL.itemPut, list, deleted, t.ID, string(js))
	return err
}

// cachedLists bounds the lists a Store keeps in memory: a tally mcp
// process works on one or two, and a list may hold thousands of tasks.
const cachedLists = 4

// listCache keeps the lists this process last committed or read, each
// with its revision and its row in task_lists, so that a call on a list
// nobody else changed since does not read and decode all its tasks again.
// A list another process changed has another revision, and one edited by
// hand another row: either is read from the database.
type listCache struct {
	mu    sync.Mutex
	tick  uint64
	lists map[string]cachedList
}

type cachedList struct {
	rev  int64
	head []byte
	used uint64
	// list is never changed: readers get it to read or to Clone.
	list tasks.List
}

func (c *listCache) get(name string, rev int64, head []byte) (tasks.List, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cl, ok := c.lists[name]
	if !ok || cl.rev != rev || !bytes.Equal(cl.head, head) {
		return tasks.List{}, false
	}
	c.tick++
	cl.used = c.tick
	c.lists[name] = cl
	return cl.list, true
}

func (c *listCache) put(name string, rev int64, head []byte, l tasks.List) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lists == nil {
		c.lists = make(map[string]cachedList)
	}
	if _, ok := c.lists[name]; !ok && len(c.lists) >= cachedLists {
		oldest := ""
		for n, cl := range c.lists {
			if oldest == "" || cl.used < c.lists[oldest].used {
				oldest = n
			}
		}
		delete(c.lists, oldest)
	}
	c.tick++
	c.lists[name] = cachedList{rev: rev, head: head, used: c.tick, list: l}
}
