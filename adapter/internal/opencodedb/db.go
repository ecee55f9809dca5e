package opencodedb

import (
	"context"
	"database/sql"
	_ "embed"
	"fmt"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
)

//go:embed sql/todos.sql
var todosSQL string

//go:embed sql/last_message.sql
var lastMessageSQL string

type sessionRow struct {
	id, parent, title, directory string
	created, updated, archived   int64
}

type dbState struct {
	db       agentdb.DB
	sessions map[string]*sessionRow
	order    []string
	todos    map[string][]tally.Item
	todoAt   map[string]int64
	lastAt   map[string]int64
	signal   map[string]tally.Signal
	runtime  map[string][]tally.Event // by root session: see readRuntime
}

// Read reads a database of OpenCode's schema at path, db naming it (which
// agent's) in errors and diagnostics. The todo table holds each session's
// current list (todowrite replaces it whole), so a session's list is one
// snapshot. A sub-agent's session (parent_id set, made by the task tool)
// is shown as a list of its root session, named by its own id, when it has
// todos. The tables have text keys, so a row it cannot use is a diagnostic
// named by its key, with Offset 0.
func Read(ctx context.Context, path string, db agentdb.DB) (map[string][]tally.Event, []tally.Diagnostic, error) {
	return db.ReadDatabase(ctx, path, &dbState{db: db})
}

// Read reads the sessions, their lists and their newest messages.
func (st *dbState) Read(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	scols, err := agentdb.Columns(ctx, tx, "session")
	if err != nil {
		return err
	}
	tcols, err := agentdb.Columns(ctx, tx, "todo")
	if err != nil {
		return err
	}
	if !scols["id"] {
		return tally.Errorf(tally.CodeInvalid, st.db.Pkg+".ReadDatabase", "no table session: not an %s database", st.db.Name)
	}
	for _, c := range []string{"session_id", "content", "status", "priority", "position", "time_updated"} {
		if !tcols[c] {
			return tally.Errorf(tally.CodeInvalid, st.db.Pkg+".ReadDatabase", "no column todo.%s: not an %s database", c, st.db.Name)
		}
	}
	if err := st.readSessions(ctx, tx, scols); err != nil {
		return err
	}
	if err := st.readTodos(ctx, tx, diags); err != nil {
		return err
	}
	mcols, err := agentdb.Columns(ctx, tx, "message")
	if err != nil {
		return err
	}
	if mcols["session_id"] && mcols["time_created"] && mcols["data"] {
		if err := st.readLast(ctx, tx, diags); err != nil {
			return err
		}
	}
	return st.readRuntime(ctx, tx)
}

func (st *dbState) readSessions(ctx context.Context, tx *sql.Tx, cols map[string]bool) error {
	// Columns come and go between OpenCode releases (directory became
	// nullable, then moved); each is read only when present.
	text, integer := agentdb.Text, agentdb.Integer
	q := "SELECT CAST(id AS TEXT), " + text(cols, "parent_id") + ", " + text(cols, "title") + ", " +
		text(cols, "directory") + ", " + integer(cols, "time_created") + ", " + integer(cols, "time_updated") + ", " +
		integer(cols, "time_archived") + " FROM session WHERE id IS NOT NULL ORDER BY 5, 1"
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	st.sessions = make(map[string]*sessionRow)
	for rows.Next() {
		var r sessionRow
		if err := rows.Scan(&r.id, &r.parent, &r.title, &r.directory, &r.created, &r.updated, &r.archived); err != nil {
			return err
		}
		st.sessions[r.id] = &r
		st.order = append(st.order, r.id)
	}
	return rows.Err()
}

func (st *dbState) readTodos(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	rows, err := tx.QueryContext(ctx, todosSQL)
	if err != nil {
		return err
	}
	defer rows.Close()
	st.todos = make(map[string][]tally.Item)
	st.todoAt = make(map[string]int64)
	for rows.Next() {
		var sid, content, status, priority, pos string
		var at int64
		if err := rows.Scan(&sid, &content, &status, &priority, &at, &pos); err != nil {
			return err
		}
		if st.sessions[sid] == nil {
			diags.Add(0, "todo", fmt.Sprintf("at position %s of session %q", pos, sid), "no such session; the item is skipped")
			continue
		}
		st.todos[sid] = append(st.todos[sid], Item("", content, status, priority))
		st.todoAt[sid] = max(st.todoAt[sid], at)
	}
	return rows.Err()
}

func (st *dbState) readLast(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	rows, err := tx.QueryContext(ctx, lastMessageSQL)
	if err != nil {
		return err
	}
	defer rows.Close()
	st.lastAt = make(map[string]int64)
	st.signal = make(map[string]tally.Signal)
	for rows.Next() {
		var sid, id, role string
		var at int64
		var valid, done bool
		if err := rows.Scan(&sid, &at, &id, &valid, &role, &done); err != nil {
			return err
		}
		st.lastAt[sid] = at
		if !valid {
			diags.Add(0, "message", fmt.Sprintf("%q (session %s, its newest)", id, sid), "data is not JSON; whose turn it is is not known")
		}
		switch {
		case role == "assistant" && done:
			st.signal[sid] = tally.SignalWaiting
		case role == "assistant", role == "user":
			st.signal[sid] = tally.SignalWorking
		}
	}
	return rows.Err()
}

// root is the session a sub-agent's session belongs to.
func (st *dbState) root(id string) string {
	seen := map[string]bool{id: true}
	for {
		p := st.sessions[st.sessions[id].parent]
		if p == nil || seen[p.id] {
			return id
		}
		seen[p.id] = true
		id = p.id
	}
}

// Events gives each root session its facts, its list and its sub-agents'
// lists; every row unusable was reported by Read.
func (st *dbState) Events(*agentdb.Diags) map[string][]tally.Event {
	out := make(map[string][]tally.Event)
	var children []string
	for _, id := range st.order {
		r := st.sessions[id]
		if root := st.root(id); root != id {
			children = append(children, id)
			continue
		}
		evs := []tally.Event{{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: id, Title: r.title, Project: r.directory}, At: Millis(r.created)}}
		if items, ok := st.todos[id]; ok {
			evs = append(evs, tally.Event{Kind: tally.EventSnapshot, Items: items, At: Millis(st.todoAt[id])})
		}
		end := tally.Meta{Signal: st.signal[id]}
		if r.archived > 0 {
			end.Signal = tally.SignalEnded
		}
		evs = append(evs, st.runtime[id]...)
		evs = append(evs, tally.Event{Kind: tally.EventMeta, Meta: end, At: latest(r.updated, st.lastAt[id])})
		out[id] = evs
	}
	for _, id := range children {
		root := st.root(id)
		if items, ok := st.todos[id]; ok && out[root] != nil {
			out[root] = append(out[root], tally.Event{Kind: tally.EventSnapshot, List: id, Items: items, At: Millis(st.todoAt[id])})
		}
	}
	return out
}

func latest(ms ...int64) time.Time {
	var m int64
	for _, v := range ms {
		m = max(m, v)
	}
	return Millis(m)
}

// Millis converts OpenCode's Date.now() milliseconds; an implausible value
// (a damaged row) is no time.
func Millis(ms int64) time.Time {
	if ms <= 0 || ms > 1e14 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
