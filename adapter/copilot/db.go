package copilot

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
)

// sessionDB is a session's session.db, where the model keeps its todos.
var sessionDB = agentdb.DB{Name: "GitHub Copilot CLI", Pkg: "copilot"}

// ReadDatabase reads a session's todos: the table todos (id, title,
// description, status, created_at, updated_at), in the order Copilot reads
// them back (creation time, then insertion: readSqlTodosWithDependencies),
// each blocked by the todos todo_deps says it depends on. The model writes
// both with arbitrary SQL through its sql tool, so the table is the list
// as it is now: one snapshot. The session is the folder's name.
func (a *Adapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	return sessionDB.ReadDatabase(ctx, path, &dbState{session: filepath.Base(filepath.Dir(path))})
}

type dbState struct {
	session string
	items   []tally.Item
	kept    bool // the todos table exists
	updated time.Time
	repair  string
}

func (st *dbState) Read(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	cols, err := agentdb.Columns(ctx, tx, "todos")
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		return nil // the model never used its todo tables
	}
	for _, c := range []string{"id", "title", "status"} {
		if !cols[c] {
			return tally.Errorf(tally.CodeInvalid, "copilot.ReadDatabase", "no column todos.%s: not a Copilot session database", c)
		}
	}
	st.kept = true
	desc, upd := "''", "''"
	if cols["description"] {
		desc = "COALESCE(CAST(description AS TEXT), '')"
	}
	if cols["updated_at"] {
		upd = "COALESCE(CAST(updated_at AS TEXT), '')"
	}
	order := "rowid"
	if cols["created_at"] {
		order = "created_at, rowid"
	}
	rs, err := tx.QueryContext(ctx, `SELECT rowid, COALESCE(CAST(id AS TEXT), ''), COALESCE(CAST(title AS TEXT), ''), `+desc+`,
		COALESCE(CAST(status AS TEXT), ''), `+upd+` FROM todos ORDER BY `+order)
	if err != nil {
		return err
	}
	defer rs.Close()
	index := make(map[string]int)
	for rs.Next() {
		var rowid int64
		var it tally.Item
		var word, updated string
		if err := rs.Scan(&rowid, &it.ID, &it.Title, &it.Description, &word, &updated); err != nil {
			return err
		}
		if it.ID == "" {
			diags.Add(rowid, "todos", fmt.Sprintf("row %d", rowid), "has no id; left out")
			continue
		}
		if !utf8.ValidString(it.Title) || !utf8.ValidString(it.Description) {
			st.repair = tally.RepairNotUTF8
			it.Title, it.Description = toValid(it.Title), toValid(it.Description)
		}
		it.Status, it.RawStatus = status(word)
		if t := sqlTime(updated); t.After(st.updated) {
			st.updated = t
		}
		index[it.ID] = len(st.items)
		st.items = append(st.items, it)
	}
	if err := rs.Err(); err != nil {
		return err
	}
	return st.readDeps(ctx, tx, index)
}

func toValid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]rune, 0, len(s))
	for _, r := range s {
		b = append(b, r)
	}
	return string(b)
}

// readDeps reads todo_deps: todo_id depends on depends_on.
func (st *dbState) readDeps(ctx context.Context, tx *sql.Tx, index map[string]int) error {
	cols, err := agentdb.Columns(ctx, tx, "todo_deps")
	if err != nil || !cols["todo_id"] || !cols["depends_on"] {
		return err
	}
	rs, err := tx.QueryContext(ctx, `SELECT CAST(todo_id AS TEXT), CAST(depends_on AS TEXT) FROM todo_deps WHERE todo_id IS NOT NULL AND depends_on IS NOT NULL ORDER BY rowid`)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var id, on string
		if err := rs.Scan(&id, &on); err != nil {
			return err
		}
		if i, ok := index[id]; ok {
			st.items[i].BlockedBy = append(st.items[i].BlockedBy, on)
		}
		if j, ok := index[on]; ok {
			st.items[j].Blocks = append(st.items[j].Blocks, id)
		}
	}
	return rs.Err()
}

func (st *dbState) Events(*agentdb.Diags) map[string][]tally.Event {
	if !st.kept {
		return map[string][]tally.Event{}
	}
	items := st.items
	if items == nil {
		items = []tally.Item{}
	}
	return map[string][]tally.Event{st.session: {
		{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: st.session}},
		{Kind: tally.EventSnapshot, Items: items, At: st.updated, Repair: st.repair},
	}}
}

// statusWords are the statuses todos' CHECK allows; done is completed.
var statusWords = map[string]tally.Status{
	"pending": tally.StatusPending, "in_progress": tally.StatusInProgress,
	"done": tally.StatusCompleted, "blocked": tally.StatusBlocked,
}

func status(word string) (tally.Status, string) {
	if s, ok := statusWords[word]; ok {
		return s, ""
	}
	return tally.StatusUnknown, word
}

// sqlTime reads SQLite's datetime('now'), UTC "2006-01-02 15:04:05", or
// an ISO time the model wrote.
func sqlTime(s string) time.Time {
	for _, layout := range []string{time.DateTime, time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}
