package crush

import (
	"context"
	"database/sql"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
)

// crushDB is crush.db, which holds every session of one project.
var crushDB = agentdb.DB{Name: "Crush", Pkg: "crush"}

//go:embed sql/last_message.sql
var lastMessageSQL string

type sessionRow struct {
	id, parent, title  string
	items              []tally.Item
	hasList            bool
	created, updated   int64
	lastAt             int64
	lastRole           string
	lastDone, hasFinal bool
	// repair is tally.RepairNotUTF8 when the todos held text that is not
	// UTF-8, which encoding/json read with U+FFFD for the bad bytes.
	repair string
}

// ReadDatabase reads crush.db: each session's title and times, its todos (the
// whole current list, a JSON column), and whose turn it is. sessions has a
// text key, so a row whose todos cannot be read is a diagnostic named by
// its id, with Offset 0.
func (a *Adapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	return crushDB.ReadDatabase(ctx, path, &dbState{proj: a.projectOf(path)})
}

// dbState is what one read of crush.db found.
type dbState struct {
	rows    map[string]*sessionRow
	order   []string // session ids by created_at
	proj    string
	runtime map[string][]tally.Event // by root session: see readRuntime
}

// Read reads the sessions, with their lists, and their newest messages.
func (st *dbState) Read(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) (err error) {
	if st.rows, st.order, err = readSessions(ctx, tx, diags); err != nil {
		return err
	}
	if err := readLast(ctx, tx, st.rows); err != nil {
		return err
	}
	return st.readRuntime(ctx, tx)
}

// Events builds the sessions' events; every row unusable was reported by
// Read.
func (st *dbState) Events(*agentdb.Diags) map[string][]tally.Event {
	return events(st.rows, st.order, st.proj, st.runtime)
}

func readSessions(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) (map[string]*sessionRow, []string, error) {
	cols, err := agentdb.Columns(ctx, tx, "sessions")
	if err != nil {
		return nil, nil, err
	}
	for _, c := range []string{"id", "parent_session_id", "title", "created_at", "updated_at"} {
		if !cols[c] {
			return nil, nil, tally.Errorf(tally.CodeInvalid, "crush.ReadDatabase", "no column sessions.%s: not a Crush database", c)
		}
	}
	// todos came with a later migration; a database before it has no lists.
	todos := "NULL"
	if cols["todos"] {
		todos = "CAST(todos AS BLOB)"
	}
	q := `SELECT CAST(id AS TEXT), COALESCE(CAST(parent_session_id AS TEXT), ''), COALESCE(CAST(title AS TEXT), ''),
		` + todos + `, COALESCE(CAST(created_at AS INTEGER), 0), COALESCE(CAST(updated_at AS INTEGER), 0)
		FROM sessions WHERE id IS NOT NULL ORDER BY created_at, id`
	rs, err := tx.QueryContext(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	defer rs.Close()
	rows := make(map[string]*sessionRow)
	var order []string
	for rs.Next() {
		var r sessionRow
		var todos []byte
		if err := rs.Scan(&r.id, &r.parent, &r.title, &todos, &r.created, &r.updated); err != nil {
			return nil, nil, err
		}
		if r.items, r.hasList, err = todoItems(todos); err != nil {
			diags.Add(0, "sessions", fmt.Sprintf("%q", r.id), "todos "+err.Error()+"; the session shows no list")
		}
		if !utf8.Valid(todos) {
			r.repair = tally.RepairNotUTF8
		}
		rows[r.id] = &r
		order = append(order, r.id)
	}
	return rows, order, rs.Err()
}

func readLast(ctx context.Context, tx *sql.Tx, rows map[string]*sessionRow) error {
	cols, err := agentdb.Columns(ctx, tx, "messages")
	if err != nil || !cols["session_id"] || !cols["updated_at"] || !cols["role"] || !cols["finished_at"] {
		return err
	}
	rs, err := tx.QueryContext(ctx, lastMessageSQL)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var sid, role string
		var at, rowid int64
		var done bool
		if err := rs.Scan(&sid, &at, &role, &done, &rowid); err != nil {
			return err
		}
		if r := rows[sid]; r != nil {
			r.lastAt, r.lastRole, r.lastDone, r.hasFinal = at, role, done, true
		}
	}
	return rs.Err()
}

// events builds each session's events. A child session (parent_session_id:
// a sub-agent's task, or the title generator) is not a session of its own;
// when it keeps todos they are a list of its root session, named by its id.
func events(rows map[string]*sessionRow, order []string, proj string, runtime map[string][]tally.Event) map[string][]tally.Event {
	out := make(map[string][]tally.Event)
	var children []string
	for _, id := range order {
		r := rows[id]
		if root(rows, id) != id {
			children = append(children, id)
			continue
		}
		evs := []tally.Event{{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: id, Title: r.title, Project: proj}, At: unixTime(r.created)}}
		if r.hasList {
			evs = append(evs, tally.Event{Kind: tally.EventSnapshot, Items: r.items, At: unixTime(r.updated), Repair: r.repair})
		}
		end := tally.Meta{}
		if r.hasFinal {
			end.Signal = tally.SignalWorking
			if r.lastRole == "assistant" && r.lastDone {
				end.Signal = tally.SignalWaiting
			}
		}
		last := unixTime(r.updated)
		if t := unixTime(r.lastAt); t.After(last) {
			last = t
		}
		evs = append(evs, runtime[id]...)
		out[id] = append(evs, tally.Event{Kind: tally.EventMeta, Meta: end, At: last})
	}
	for _, id := range children {
		r := rows[id]
		if r.hasList && out[root(rows, id)] != nil {
			out[root(rows, id)] = append(out[root(rows, id)], tally.Event{Kind: tally.EventSnapshot, List: id, Items: r.items, At: unixTime(r.updated), Repair: r.repair})
		}
	}
	return out
}

func root(rows map[string]*sessionRow, id string) string {
	seen := map[string]bool{id: true}
	for {
		p := rows[rows[id].parent]
		if p == nil || seen[p.id] {
			return id
		}
		seen[p.id] = true
		id = p.id
	}
}

// todoItems reads the todos column: Crush's []session.Todo as JSON. ok is
// false for a session that never wrote a list (raw empty), and with an
// error, saying what is wrong, for a column that is not a list Tally can
// read.
func todoItems(raw []byte) (items []tally.Item, ok bool, err error) {
	if len(raw) == 0 {
		return nil, false, nil
	}
	if len(raw) > maxTodos {
		return nil, false, errors.New("is over 1 MiB")
	}
	var todos []struct {
		Content    string `json:"content"`
		Status     string `json:"status"`
		ActiveForm string `json:"active_form"`
	}
	if err := json.Unmarshal(raw, &todos); err != nil {
		return nil, false, fmt.Errorf("is not a JSON list of todos (%v)", err)
	}
	items = make([]tally.Item, len(todos))
	for i, t := range todos {
		items[i] = tally.Item{Title: t.Content, ActiveForm: t.ActiveForm}
		items[i].Status, items[i].RawStatus = status(t.Status)
	}
	return items, true, nil
}

// maxTodos bounds the todos column read: a list is a few kilobytes.
const maxTodos = 1 << 20

// statusWords are the statuses Crush's todos tool accepts
// (internal/agent/tools/todos.go). Crush has no cancelled; any other word
// is kept as unknown with the word itself.
var statusWords = map[string]tally.Status{
	"pending":     tally.StatusPending,
	"in_progress": tally.StatusInProgress,
	"completed":   tally.StatusCompleted,
}

func status(word string) (tally.Status, string) {
	if s, ok := statusWords[word]; ok {
		return s, ""
	}
	return tally.StatusUnknown, word
}

// unixTime reads Crush's timestamps: Unix seconds in its migrations; a
// value too large for seconds is taken as milliseconds.
func unixTime(v int64) time.Time {
	switch {
	case v <= 0:
		return time.Time{}
	case v < 1e11:
		return time.Unix(v, 0).UTC()
	case v < 1e14:
		return time.UnixMilli(v).UTC()
	}
	return time.Time{}
}
