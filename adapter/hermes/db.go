package hermes

import (
	"cmp"
	"context"
	"database/sql"
	_ "embed"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
	"github.com/tallyhq/tally/marker"
)

// stateDB is Hermes' state.db, which holds every session.
var stateDB = agentdb.DB{Name: "Hermes", Pkg: "hermes"}

// todoMessagesSQL selects the assistant rows that may call the todo tool
// and the tool rows answering such a call, in conversation order. The
// instr test is a cheap prefilter (most rows call other tools); the Go
// side keeps only calls named todo or todo_list.
//
//go:embed sql/todo_messages.sql
var todoMessagesSQL string

// markerMessagesSQL selects the assistant rows whose text may hold a
// progress marker.
//
//go:embed sql/marker_messages.sql
var markerMessagesSQL string

// lastMessageSQL gives each session's newest message: whose turn it is.
//
//go:embed sql/last_message.sql
var lastMessageSQL string

// recentCallsSQL selects the assistant rows that call tools in the last
// half hour before the newest message, whose calls are fingerprinted: the
// database is read whole at every change, and the calls of conversations
// over by then tell nothing any more. The newest message stands for now,
// so that a read depends on the database alone.
//
//go:embed sql/recent_calls.sql
var recentCallsSQL string

// firstPromptSQL gives each session's first user message, the title of a
// session Hermes has not titled.
//
//go:embed sql/first_prompt.sql
var firstPromptSQL string

// ReadDatabase reads state.db and returns the events of every
// conversation, one per compression chain (see chain). A message row it
// cannot use is a diagnostic with the row's id (messages.id, its rowid) as
// Offset.
func (a *Adapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	return stateDB.ReadDatabase(ctx, path, &dbState{})
}

// sessionRow is one row of Hermes' sessions table.
type sessionRow struct {
	id, parent, endReason, title, cwd string
	started, ended                    float64
}

type lastRow struct {
	at       float64
	role     string
	hasCalls bool
}

// dbState is what one read of state.db found.
type dbState struct {
	sessions map[string]*sessionRow
	order    []string // session ids by started_at
	msgs     map[string][]message
	markers  map[string][]tally.Marker
	bad      map[int64]bool // rows already reported unreadable
	last     map[string]lastRow
	prompt   map[string]string
	runtime  map[string][]tally.Event // by session row: see runtime.go
}

// Read reads the rows Hermes' todo lists are folded from.
func (st *dbState) Read(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	scols, err := agentdb.Columns(ctx, tx, "sessions")
	if err != nil {
		return err
	}
	mcols, err := agentdb.Columns(ctx, tx, "messages")
	if err != nil {
		return err
	}
	for _, c := range []string{"id", "parent_session_id", "started_at", "ended_at", "end_reason"} {
		if !scols[c] {
			return tally.Errorf(tally.CodeInvalid, "hermes.ReadDatabase", "no column sessions.%s: not a Hermes state.db", c)
		}
	}
	for _, c := range []string{"session_id", "role", "content", "tool_call_id", "tool_calls", "timestamp"} {
		if !mcols[c] {
			return tally.Errorf(tally.CodeInvalid, "hermes.ReadDatabase", "no column messages.%s: not a Hermes state.db", c)
		}
	}
	if err := st.readSessions(ctx, tx, scols); err != nil {
		return err
	}
	if err := st.readMessages(ctx, tx, diags); err != nil {
		return err
	}
	if err := st.readMarkers(ctx, tx); err != nil {
		return err
	}
	return st.readLast(ctx, tx)
}

func (st *dbState) readSessions(ctx context.Context, tx *sql.Tx, cols map[string]bool) error {
	q := `SELECT CAST(id AS TEXT), COALESCE(CAST(parent_session_id AS TEXT), ''),
		COALESCE(CAST(end_reason AS TEXT), ''), ` + agentdb.Text(cols, "title") + `, ` + agentdb.Text(cols, "cwd") + `,
		COALESCE(CAST(started_at AS REAL), 0), COALESCE(CAST(ended_at AS REAL), 0)
		FROM sessions WHERE id IS NOT NULL ORDER BY started_at, id`
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	st.sessions = make(map[string]*sessionRow)
	for rows.Next() {
		var r sessionRow
		if err := rows.Scan(&r.id, &r.parent, &r.endReason, &r.title, &r.cwd, &r.started, &r.ended); err != nil {
			return err
		}
		st.sessions[r.id] = &r
		st.order = append(st.order, r.id)
	}
	return rows.Err()
}

func (st *dbState) readMessages(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	rows, err := tx.QueryContext(ctx, todoMessagesSQL)
	if err != nil {
		return err
	}
	defer rows.Close()
	st.msgs = make(map[string][]message)
	st.bad = make(map[int64]bool)
	for rows.Next() {
		var sid, role, callID string
		var calls, content []byte
		var ts float64
		var rowID int64
		if err := rows.Scan(&sid, &role, &ts, &calls, &callID, &content, &rowID); err != nil {
			rows.Close()
			return err
		}
		m := message{role: role, callID: callID, at: unixTime(ts), session: sid, row: rowID, notUTF8: !utf8.Valid(calls) || !utf8.Valid(content)}
		if role == "tool" {
			m.content = content
		} else if m.calls, _, err = todoCalls(calls); err != nil {
			diags.Add(rowID, "messages", m.name(), "tool_calls is not a JSON list of calls ("+err.Error()+"); its todo calls are skipped")
			st.bad[rowID] = true
			continue
		}
		st.msgs[sid] = append(st.msgs[sid], m)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	return st.readCalls(ctx, tx, diags)
}

// readCalls adds the recent tool calls to the messages, each where its row
// stands in the conversation.
func (st *dbState) readCalls(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	rows, err := tx.QueryContext(ctx, recentCallsSQL, recentCalls.Seconds())
	if err != nil {
		return err
	}
	defer rows.Close()
	touched := map[string]bool{}
	for rows.Next() {
		var sid string
		var calls []byte
		var ts float64
		var rowID int64
		if err := rows.Scan(&sid, &ts, &calls, &rowID); err != nil {
			return err
		}
		m := message{role: "assistant", at: unixTime(ts), session: sid, row: rowID}
		if _, m.fps, err = todoCalls(calls); err != nil {
			if !st.bad[rowID] {
				diags.Add(rowID, "messages", m.name(), "tool_calls is not a JSON list of calls ("+err.Error()+"); its calls are not counted")
			}
			continue
		}
		if st.runtime == nil {
			st.runtime = make(map[string][]tally.Event)
		}
		st.runtime[sid] = append(st.runtime[sid], runtimeStarts(calls, m.at)...)
		st.msgs[sid] = append(st.msgs[sid], m)
		touched[sid] = true
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if st.runtime == nil {
		st.runtime = make(map[string][]tally.Event)
	}
	if err := st.readResults(ctx, tx); err != nil {
		return err
	}
	for sid := range touched {
		slices.SortStableFunc(st.msgs[sid], func(a, b message) int {
			if c := a.at.Compare(b.at); c != 0 {
				return c
			}
			return cmp.Compare(a.row, b.row)
		})
	}
	return rows.Err()
}

// readMarkers reads the progress markers of assistant rows. A row has no
// byte offset: its id, which orders the messages table, places it.
func (st *dbState) readMarkers(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, markerMessagesSQL)
	if err != nil {
		return err
	}
	defer rows.Close()
	st.markers = make(map[string][]tally.Marker)
	for rows.Next() {
		var sid string
		var rowID int64
		var ts float64
		var content []byte
		if err := rows.Scan(&sid, &rowID, &ts, &content); err != nil {
			return err
		}
		st.markers[sid] = append(st.markers[sid], marker.Append(nil, content, rowID, unixTime(ts))...)
	}
	return rows.Err()
}

// recentCalls is how far before the newest message tool calls are read:
// a conversation quiet that long is over (tally.EndedAfter).
const recentCalls = tally.EndedAfter

func (st *dbState) readLast(ctx context.Context, tx *sql.Tx) error {
	st.last = make(map[string]lastRow)
	rows, err := tx.QueryContext(ctx, lastMessageSQL)
	if err != nil {
		return err
	}
	for rows.Next() {
		var sid string
		var r lastRow
		if err := rows.Scan(&sid, &r.at, &r.role, &r.hasCalls); err != nil {
			rows.Close()
			return err
		}
		st.last[sid] = r
	}
	if err := rows.Close(); err != nil {
		return err
	}
	st.prompt = make(map[string]string)
	rows, err = tx.QueryContext(ctx, firstPromptSQL)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var sid, text string
		var rowID int64
		if err := rows.Scan(&sid, &rowID, &text); err != nil {
			return err
		}
		st.prompt[sid] = tally.PromptTitle(text)
	}
	return rows.Err()
}

// chain returns the root of id's compression chain. Hermes splits a
// conversation when it compresses its context: the old session ends with
// end_reason "compression" and a new one names it as parent
// (hermes_state_common.py, _COMPRESSION_CHILD_SQL). The todo store lives
// on, so one chain is one conversation for Tally, named by its root: that
// id never changes while the conversation goes on. Other children
// (branches, delegated sub-agents) are conversations of their own.
func (st *dbState) chain(id string) string {
	seen := map[string]bool{id: true}
	for {
		s := st.sessions[id]
		p := st.sessions[s.parent]
		if p == nil || p.endReason != "compression" || seen[p.id] {
			return id
		}
		seen[p.id] = true
		id = p.id
	}
}

// Events folds the rows into each conversation's events: its facts, its
// todo calls in order, and what its newest message says.
func (st *dbState) Events(diags *agentdb.Diags) map[string][]tally.Event {
	chains := make(map[string][]*sessionRow)
	var roots []string
	for _, id := range st.order {
		root := st.chain(id)
		if chains[root] == nil {
			roots = append(roots, root)
		}
		chains[root] = append(chains[root], st.sessions[id])
	}
	out := make(map[string][]tally.Event, len(roots))
	for _, root := range roots {
		out[root] = st.chainEvents(root, chains[root], diags)
	}
	return out
}

func (st *dbState) chainEvents(root string, rows []*sessionRow, diags *agentdb.Diags) []tally.Event {
	meta := tally.Meta{SessionID: root}
	var msgs []message
	for _, r := range rows {
		if r.title != "" {
			meta.Title = r.title
		}
		if r.cwd != "" {
			meta.Project = r.cwd
		}
		msgs = append(msgs, st.msgs[r.id]...)
	}
	if meta.Title == "" && st.prompt[root] != "" {
		meta.Title, meta.TitleWeak = st.prompt[root], true
	}
	evs := []tally.Event{{Kind: tally.EventMeta, Meta: meta, At: unixTime(rows[0].started)}}
	todo, probs := todoEvents(msgs)
	evs = append(evs, todo...)
	for _, r := range rows {
		evs = append(evs, st.runtime[r.id]...)
	}
	for _, r := range rows {
		for _, m := range st.markers[r.id] {
			evs = append(evs, tally.Event{Kind: tally.EventMarker, At: m.At, Marker: m})
		}
	}
	for _, p := range probs {
		diags.Add(p.msg.row, "messages", p.msg.name(), p.String())
	}

	tip := rows[len(rows)-1]
	var lastAt time.Time
	sig := tally.SignalNone
	for _, r := range rows {
		if l, ok := st.last[r.id]; ok && !unixTime(l.at).Before(lastAt) {
			lastAt, sig = unixTime(l.at), signalOf(l.role, l.hasCalls)
		}
	}
	if tip.ended > 0 && tip.endReason != "compression" {
		sig = tally.SignalEnded
		if t := unixTime(tip.ended); t.After(lastAt) {
			lastAt = t
		}
	}
	return append(evs, tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Signal: sig}, At: lastAt})
}
