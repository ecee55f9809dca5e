package goose

import (
	"context"
	"database/sql"
	_ "embed"
	"fmt"
	"path/filepath"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
	"github.com/tallyhq/tally/marker"
)

// gooseDB is sessions.db, which holds every session Goose ran.
var gooseDB = agentdb.DB{Name: "Goose", Pkg: "goose"}

var (
	//go:embed sql/sessions.sql
	sessionsSQL string
	//go:embed sql/last_message.sql
	lastMessageSQL string
	//go:embed sql/marker_texts.sql
	markerTextsSQL string
)

type sessionRow struct {
	id, title, kind, dir string
	created, updated     int64
	todo                 []byte // the todo.v0 member of extension_data, as JSON
	items                []tally.Item
	hasList              bool
	repair               string
	// the last message: its role, time and whether it asks for a tool
	lastRole string
	lastAt   int64
	lastTool bool
	hasLast  bool
	// markers are the progress markers in the assistant's text
	markers []tally.Marker
}

// ReadDatabase reads sessions.db: each session's title, folder and times,
// its todo (the whole current text, in extension_data) and whose turn it
// is. sessions has a text key, so a row that cannot be used is a
// diagnostic named by its id, with Offset 0.
func (a *Adapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	return gooseDB.ReadDatabase(ctx, path, &dbState{})
}

// dbState is what one read of sessions.db found.
type dbState struct {
	rows  map[string]*sessionRow
	order []string
}

func (st *dbState) Read(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) (err error) {
	if st.rows, st.order, err = readSessions(ctx, tx, diags); err != nil {
		return err
	}
	if err := readLast(ctx, tx, st.rows); err != nil {
		return err
	}
	return readMarkers(ctx, tx, st.rows)
}

func (st *dbState) Events(*agentdb.Diags) map[string][]tally.Event {
	out := make(map[string][]tally.Event, len(st.order))
	for _, id := range st.order {
		out[id] = events(st.rows[id])
	}
	return out
}

func readSessions(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) (map[string]*sessionRow, []string, error) {
	cols, err := agentdb.Columns(ctx, tx, "sessions")
	if err != nil {
		return nil, nil, err
	}
	for _, c := range []string{"id", "working_dir", "created_at", "updated_at", "extension_data"} {
		if !cols[c] {
			return nil, nil, tally.Errorf(tally.CodeInvalid, "goose.ReadDatabase", "no column sessions.%s: not a Goose database", c)
		}
	}
	q := fmt.Sprintf(sessionsSQL, agentdb.Text(cols, "name"), agentdb.Text(cols, "description"), agentdb.Text(cols, "session_type"))
	rs, err := tx.QueryContext(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	defer rs.Close()
	rows := make(map[string]*sessionRow)
	var order []string
	for rs.Next() {
		var r sessionRow
		var name, desc string
		var bad bool
		if err := rs.Scan(&r.id, &name, &desc, &r.dir, &r.kind, &r.created, &r.updated, &r.todo, &bad); err != nil {
			return nil, nil, err
		}
		if r.kind == "hidden" {
			continue // Goose's own bookkeeping, never shown to its user
		}
		r.title = name
		if r.title == "" {
			r.title = desc
		}
		switch {
		case bad:
			diags.Add(0, "sessions", fmt.Sprintf("%q", r.id), "extension_data is not JSON; the session shows no list")
		case r.todo != nil:
			if r.items, r.repair, err = todoItems(r.todo); err != nil {
				diags.Add(0, "sessions", fmt.Sprintf("%q", r.id), `extension_data's "todo.v0" `+err.Error()+"; the session shows no list")
			} else {
				r.hasList = true
			}
		}
		rows[r.id] = &r
		order = append(order, r.id)
	}
	return rows, order, rs.Err()
}

func readLast(ctx context.Context, tx *sql.Tx, rows map[string]*sessionRow) error {
	cols, err := agentdb.Columns(ctx, tx, "messages")
	if err != nil || !cols["session_id"] || !cols["role"] || !cols["content_json"] || !cols["created_timestamp"] {
		return err
	}
	rs, err := tx.QueryContext(ctx, lastMessageSQL)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var sid, role string
		var at int64
		var tool bool
		if err := rs.Scan(&sid, &role, &at, &tool); err != nil {
			return err
		}
		if r := rows[sid]; r != nil {
			r.lastRole, r.lastAt, r.lastTool, r.hasLast = role, at, tool, true
		}
	}
	return rs.Err()
}

// readMarkers reads the progress markers in the assistant's text. A
// message has no byte offset: its id, which orders the messages table,
// places it, and Index numbers the markers of all its text blocks.
func readMarkers(ctx context.Context, tx *sql.Tx, rows map[string]*sessionRow) error {
	cols, err := agentdb.Columns(ctx, tx, "messages")
	if err != nil || !cols["session_id"] || !cols["role"] || !cols["content_json"] || !cols["created_timestamp"] {
		return err
	}
	rs, err := tx.QueryContext(ctx, markerTextsSQL)
	if err != nil {
		return err
	}
	defer rs.Close()
	var row []tally.Marker // the markers of the message being read
	var rowID int64 = -1
	for rs.Next() {
		var sid string
		var id, at int64
		var text []byte
		if err := rs.Scan(&sid, &id, &at, &text); err != nil {
			return err
		}
		r := rows[sid]
		if r == nil {
			continue
		}
		if id != rowID {
			row, rowID = nil, id
		}
		n := len(row)
		row = marker.Append(row, text, id, unixTime(at))
		r.markers = append(r.markers, row[n:]...)
	}
	return rs.Err()
}

// events are one session's: who it is, its list, and whose turn it is. An
// assistant message that asks for no tool ends Goose's reply; anything
// else (a tool's answer is the user's message) means it is still working.
func events(r *sessionRow) []tally.Event {
	meta := tally.Meta{SessionID: r.id, Title: r.title}
	if filepath.IsAbs(r.dir) {
		meta.Project = r.dir
	}
	evs := []tally.Event{{Kind: tally.EventMeta, Meta: meta, At: unixTime(r.created)}}
	if r.hasList {
		evs = append(evs, tally.Event{Kind: tally.EventSnapshot, Items: r.items, At: unixTime(r.updated), Repair: r.repair})
	}
	for _, m := range r.markers {
		evs = append(evs, tally.Event{Kind: tally.EventMarker, At: m.At, Marker: m})
	}
	end := tally.Meta{}
	if r.hasLast {
		end.Signal = tally.SignalWorking
		if r.lastRole == "assistant" && !r.lastTool {
			end.Signal = tally.SignalWaiting
		}
	}
	last := unixTime(r.updated)
	if t := unixTime(r.lastAt); t.After(last) {
		last = t
	}
	return append(evs, tally.Event{Kind: tally.EventMeta, Meta: end, At: last})
}

// unixTime reads Unix seconds; 0 (a time SQLite could not read) is none.
func unixTime(v int64) time.Time {
	if v <= 0 || v > 1e11 {
		return time.Time{}
	}
	return time.Unix(v, 0).UTC()
}
