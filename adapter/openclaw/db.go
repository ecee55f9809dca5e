package openclaw

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
	"github.com/tallyhq/tally/adapter/internal/toolrun"
)

// agentDB is openclaw-agent.sqlite, which holds every session of one
// OpenClaw agent.
var agentDB = agentdb.DB{Name: "OpenClaw", Pkg: "openclaw"}

const op = "openclaw.ReadDatabase"

// ReadDatabase reads an agent's database: each session window (a session
// id) with its node's title and parent, the progress card of the node whose
// current window it is, its runtime progress (the trajectory's tool calls
// and results), its children relayed to it, the turn its transcript ends
// on and the stall notices OpenClaw gave it.
func (a *Adapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	return agentDB.ReadDatabase(ctx, path, &dbState{})
}

// window is one session window: a session id of a session key.
type window struct {
	id, key          string
	created, updated int64
	title, label     string
	parentKey        string
	status           string // the node's: running, done, failed, killed, timeout
	current          bool   // the node's current window
	cwd              string
	prompt           string
	card             *card
	runtime          []tally.Event
	signal           tally.Signal
	lastAt           time.Time
	stalls           []time.Time
	repair           string
}

type card struct {
	items   []tally.Item
	updated int64
}

type dbState struct {
	windows map[string]*window
	order   []string
	byKey   map[string]*window // a key's current window
}

func (st *dbState) Read(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	if err := st.readWindows(ctx, tx); err != nil {
		return err
	}
	if err := st.readCards(ctx, tx, diags); err != nil {
		return err
	}
	if err := st.readRuntime(ctx, tx); err != nil {
		return err
	}
	return st.readTranscripts(ctx, tx, diags)
}

func need(ctx context.Context, tx *sql.Tx, table string, cols ...string) (map[string]bool, error) {
	have, err := agentdb.Columns(ctx, tx, table)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		if !have[c] {
			return nil, tally.Errorf(tally.CodeInvalid, op, "no column %s.%s: not an OpenClaw agent database", table, c)
		}
	}
	return have, nil
}

func (st *dbState) readWindows(ctx context.Context, tx *sql.Tx) error {
	if _, err := need(ctx, tx, "session_windows", "session_id", "session_key", "created_at", "updated_at"); err != nil {
		return err
	}
	if _, err := need(ctx, tx, "session_nodes", "session_key", "current_session_id", "parent_session_key", "label", "display_name", "status"); err != nil {
		return err
	}
	rs, err := tx.QueryContext(ctx, `SELECT w.session_id, w.session_key, COALESCE(CAST(w.created_at AS INTEGER), 0),
		COALESCE(CAST(w.updated_at AS INTEGER), 0), COALESCE(w.display_name, n.display_name, ''), COALESCE(n.label, ''),
		COALESCE(n.parent_session_key, ''), COALESCE(n.status, ''), COALESCE(n.current_session_id, '')
		FROM session_windows w LEFT JOIN session_nodes n ON n.session_key = w.session_key
		WHERE w.session_id IS NOT NULL ORDER BY w.created_at, w.session_id`)
	if err != nil {
		return err
	}
	defer rs.Close()
	st.windows, st.byKey = make(map[string]*window), make(map[string]*window)
	for rs.Next() {
		w := &window{}
		var cur string
		if err := rs.Scan(&w.id, &w.key, &w.created, &w.updated, &w.title, &w.label, &w.parentKey, &w.status, &cur); err != nil {
			return err
		}
		w.current = cur == w.id
		if w.title == "" {
			w.title = w.label
		}
		st.windows[w.id] = w
		st.order = append(st.order, w.id)
		if w.current {
			st.byKey[w.key] = w
		}
	}
	return rs.Err()
}

// readCards reads each key's progress card: the plan (steps_json) as the
// key's current window's list. A card cleared (steps_json NULL) is an
// empty list.
func (st *dbState) readCards(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	have, err := agentdb.Columns(ctx, tx, "session_progress_cards")
	if err != nil || !have["session_key"] || !have["steps_json"] {
		return err // a database from before progress cards: no lists
	}
	rs, err := tx.QueryContext(ctx, `SELECT rowid, session_key, CAST(steps_json AS BLOB), COALESCE(CAST(updated_at AS INTEGER), 0) FROM session_progress_cards`)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var rowid, updated int64
		var key string
		var steps []byte
		if err := rs.Scan(&rowid, &key, &steps, &updated); err != nil {
			return err
		}
		w := st.byKey[key]
		if w == nil {
			continue // a card whose session is gone
		}
		items, err := stepItems(steps)
		if err != nil {
			diags.Add(rowid, "session_progress_cards", fmt.Sprintf("%q", key), "steps_json "+err.Error()+"; the session shows no card")
			continue
		}
		w.card = &card{items: items, updated: updated}
	}
	return rs.Err()
}

// maxSteps bounds steps_json: OpenClaw allows 50 steps of 512 bytes.
const maxSteps = 1 << 20

// stepItems reads steps_json, [{step, status}]; NULL is a cleared card.
func stepItems(raw []byte) ([]tally.Item, error) {
	if len(raw) == 0 {
		return []tally.Item{}, nil
	}
	if len(raw) > maxSteps {
		return nil, fmt.Errorf("is over 1 MiB")
	}
	var steps []struct {
		Step   string `json:"step"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(raw, &steps); err != nil {
		return nil, fmt.Errorf("is not a JSON list of steps (%v)", err)
	}
	items := make([]tally.Item, len(steps))
	for i, s := range steps {
		items[i] = tally.Item{Title: s.Step}
		items[i].Status, items[i].RawStatus = status(s.Status)
	}
	return items, nil
}

// statusWords are progress_card's statuses (pending, in_progress,
// completed: no cancelled; a step dropped is left out).
var statusWords = map[string]tally.Status{
	"pending": tally.StatusPending, "in_progress": tally.StatusInProgress, "completed": tally.StatusCompleted,
}

func status(word string) (tally.Status, string) {
	if s, ok := statusWords[word]; ok {
		return s, ""
	}
	return tally.StatusUnknown, word
}

// readRuntime reads the trajectory's tool calls and results (what the
// embedded runner recorded of tool_execution_start and _end) as runtime
// progress, and the runs that ended idle-timed-out (a stall). Only the
// fields a label needs are taken from the JSON, by SQLite.
func (st *dbState) readRuntime(ctx context.Context, tx *sql.Tx) error {
	have, err := agentdb.Columns(ctx, tx, "trajectory_runtime_events")
	if err != nil || !have["event_json"] || !have["session_id"] {
		return err
	}
	rs, err := tx.QueryContext(ctx, `SELECT session_id, json_extract(event_json, '$.type'), COALESCE(json_extract(event_json, '$.ts'), ''),
		COALESCE(json_extract(event_json, '$.data.toolCallId'), ''), COALESCE(json_extract(event_json, '$.data.name'), ''),
		COALESCE(json_extract(event_json, '$.data.args.command'), ''), COALESCE(json_extract(event_json, '$.data.args.path'), json_extract(event_json, '$.data.args.file_path'), ''),
		COALESCE(json_extract(event_json, '$.data.args.title'), json_extract(event_json, '$.data.args.label'), json_extract(event_json, '$.data.args.taskName'), ''),
		COALESCE(json_extract(event_json, '$.data.args.id'), ''),
		COALESCE(json_extract(event_json, '$.data.success'), 1), COALESCE(json_extract(event_json, '$.data.idleTimedOut'), 0)
		FROM trajectory_runtime_events
		WHERE json_valid(event_json) AND (instr(event_json, '"type":"tool.') > 0 OR instr(event_json, '"type":"model.completed"') > 0)
		ORDER BY session_id, seq`)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var sid, typ, ts, id, name, command, path, title, inner string
		var success, idle int64
		if err := rs.Scan(&sid, &typ, &ts, &id, &name, &command, &path, &title, &inner, &success, &idle); err != nil {
			return err
		}
		w := st.windows[sid]
		if w == nil {
			continue
		}
		at := isoTime(ts)
		emit := func(ev tally.Event) { w.runtime = append(w.runtime, ev) }
		switch typ {
		case "tool.call":
			if name == "tool_call" && inner != "" {
				name = inner // Tool Search's wrapper: the tool it calls
			}
			toolrun.Start(emit, id, name, toolrun.Input{Command: command, Path: path, Title: title}, at)
		case "tool.result":
			toolrun.End(emit, id, success == 0, at)
		case "model.completed":
			if idle != 0 {
				w.stalls = append(w.stalls, at)
			}
		}
	}
	return rs.Err()
}

// Events builds each session's events. A child session (spawned by
// another: parent_session_key) is relayed to its parent's current window:
// a runtime item that runs until the child's node says it is done or
// failed, and its card, if it keeps one, as a list of the parent named by
// its label.
func (st *dbState) Events(*agentdb.Diags) map[string][]tally.Event {
	out := make(map[string][]tally.Event)
	for _, id := range st.order {
		w := st.windows[id]
		if w.parentKey != "" && st.byKey[w.parentKey] != nil {
			continue
		}
		evs := []tally.Event{{Kind: tally.EventMeta, At: msTime(w.created),
			Meta: tally.Meta{SessionID: w.id, Project: w.cwd, Title: w.title}}}
		if w.title == "" && w.prompt != "" {
			evs = append(evs, tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Title: w.prompt, TitleWeak: true}})
		}
		if w.card != nil {
			evs = append(evs, tally.Event{Kind: tally.EventSnapshot, Items: w.card.items, At: msTime(w.card.updated), Repair: w.repair})
		}
		evs = append(evs, w.runtime...)
		last := msTime(w.updated)
		if w.lastAt.After(last) {
			last = w.lastAt
		}
		// A stall noticed after the newest message is where the session
		// stands: a run cut off silent, not a turn ended.
		var stall time.Time
		for _, at := range w.stalls {
			if !at.Before(w.lastAt) && (stall.IsZero() || at.Before(stall)) {
				stall = at
			}
		}
		sig := w.signal
		if !stall.IsZero() {
			sig = tally.SignalWorking
		}
		evs = append(evs, tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Signal: sig}, At: last})
		if !stall.IsZero() {
			// Timed no earlier than the session's newest word, which the
			// window's row may have been stamped with after the notice.
			evs = append(evs, tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Stalled: true}, At: later(stall, last)})
		}
		out[id] = evs
	}
	for _, id := range st.order {
		w := st.windows[id]
		p := st.byKey[w.parentKey]
		if w.parentKey == "" || p == nil || out[p.id] == nil || !w.current {
			continue
		}
		name := w.label
		if name == "" {
			name = w.title
		}
		evs := []tally.Event{}
		emit := func(ev tally.Event) { evs = append(evs, ev) }
		child := "child:" + w.key
		toolrun.Start(emit, child, "sessions_spawn", toolrun.Input{Title: name}, msTime(w.created))
		switch w.status {
		case "done":
			toolrun.End(emit, child, false, msTime(w.updated))
		case "failed", "killed", "timeout":
			toolrun.End(emit, child, true, msTime(w.updated))
		}
		if w.card != nil && len(w.card.items) > 0 {
			evs = append(evs, tally.Event{Kind: tally.EventMeta, List: w.key, Meta: tally.Meta{Name: name}},
				tally.Event{Kind: tally.EventSnapshot, List: w.key, Items: w.card.items, At: msTime(w.card.updated)})
		}
		out[p.id] = append(out[p.id], evs...)
	}
	return out
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func msTime(ms int64) time.Time {
	if ms <= 0 || ms > 1e14 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func isoTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// stallNotice is what OpenClaw's CLI watchdog tells a session whose CLI
// agent went silent (execute.runtime: "CLI agent (…) produced no output
// for Ns and was terminated."), delivered in its next prompt as a
// "System:" line.
const stallNotice = "produced no output for"

func isStallNotice(text string) bool {
	return strings.Contains(text, stallNotice) && strings.Contains(text, "was terminated")
}
