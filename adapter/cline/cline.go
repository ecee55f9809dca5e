package cline

import (
	"context"
	"database/sql"
	_ "embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
)

var (
	_ tally.DatabaseReader = (*Adapter)(nil)
	_ tally.DirSkipper     = (*Adapter)(nil)
)

// Options configure an Adapter.
type Options struct {
	// DBDir is the folder of Cline's databases (~/.cline/data/db), as
	// the caller resolved it; "" reads nothing.
	DBDir string
}

// Adapter reads Cline's two databases: teams.db (the task boards) and
// sessions.db (the sessions).
type Adapter struct{ dbDir string }

func New(o Options) *Adapter {
	if o.DBDir == "" {
		return &Adapter{}
	}
	return &Adapter{dbDir: filepath.Clean(o.DBDir)}
}

const (
	teamsDB    = "teams.db"
	sessionsDB = "sessions.db"
)

var clineDB = agentdb.DB{Name: "Cline", Pkg: "cline"}

func (a *Adapter) Agent() tally.Agent { return Agent }

func (a *Adapter) Roots() []string {
	if a.dbDir == "" {
		return nil
	}
	return []string{a.dbDir}
}

// Match accepts teams.db and sessions.db, each with its -wal.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) {
	db := strings.TrimSuffix(path, "-wal")
	if filepath.Dir(db) != root {
		return tally.FileInfo{}, false
	}
	switch filepath.Base(db) {
	case teamsDB, sessionsDB:
		return tally.FileInfo{Path: db, Layout: tally.LayoutDatabase}, true
	}
	return tally.FileInfo{}, false
}

// SkipDir: both databases are at the root.
func (a *Adapter) SkipDir(root, dir string) bool { return dir != root }

//go:embed sql/tasks.sql
var tasksSQL string

//go:embed sql/sessions.sql
var sessionsSQL string

// ReadDatabase reads one of the two databases: the task boards, each the
// list of the session whose id names it, or the sessions' own facts.
func (a *Adapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	if filepath.Base(path) == sessionsDB {
		return clineDB.ReadDatabase(ctx, path, &sessionsRead{})
	}
	return clineDB.ReadDatabase(ctx, path, &boardsRead{})
}

// boardsRead reads team_tasks: a board's rows are its tasks now (a task
// is created, claimed, completed or blocked in place, never removed).
type boardsRead struct {
	order []string
	items map[string][]tally.Item
	at    map[string]time.Time
}

func (r *boardsRead) Read(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	cols, err := agentdb.Columns(ctx, tx, "team_tasks")
	if err != nil {
		return err
	}
	for _, c := range []string{"team_name", "task_id", "title", "description", "status", "assignee", "depends_on_json", "updated_at"} {
		if !cols[c] {
			return tally.Errorf(tally.CodeInvalid, "cline.ReadDatabase", "no column team_tasks.%s: not Cline's teams.db", c)
		}
	}
	rows, err := tx.QueryContext(ctx, tasksSQL)
	if err != nil {
		return err
	}
	defer rows.Close()
	r.items, r.at = make(map[string][]tally.Item), make(map[string]time.Time)
	for rows.Next() {
		var rowid int64
		var team, id, title, desc, status, assignee, deps, updated string
		if err := rows.Scan(&rowid, &team, &id, &title, &desc, &status, &assignee, &deps, &updated); err != nil {
			return err
		}
		it := tally.Item{ID: id, Title: title, Description: desc, Owner: assignee, Source: tally.SourceTask}
		it.Status, it.RawStatus = tally.StatusOf(status)
		if deps != "" {
			if err := json.Unmarshal([]byte(deps), &it.BlockedBy); err != nil {
				diags.Add(rowid, "team_tasks", fmt.Sprintf("%s of board %s", id, team), "depends_on_json is not a list of ids; the task is kept without them")
				it.BlockedBy = nil
			}
		}
		if _, ok := r.items[team]; !ok {
			r.order = append(r.order, team)
		}
		r.items[team] = append(r.items[team], it)
		if t := stamp(updated); t.After(r.at[team]) {
			r.at[team] = t
		}
	}
	return rows.Err()
}

func (r *boardsRead) Events(*agentdb.Diags) map[string][]tally.Event {
	out := make(map[string][]tally.Event, len(r.order))
	for _, team := range r.order {
		out[team] = []tally.Event{{Kind: tally.EventTaskResync, At: r.at[team], Items: r.items[team]}}
	}
	return out
}

// sessionsRead reads the sessions table: each session's folder, title,
// times, and whether it is over.
type sessionsRead struct{ out map[string][]tally.Event }

func (r *sessionsRead) Read(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	cols, err := agentdb.Columns(ctx, tx, "sessions")
	if err != nil {
		return err
	}
	for _, c := range []string{"session_id", "cwd", "started_at", "ended_at", "updated_at", "status", "metadata_json", "prompt", "is_subagent"} {
		if !cols[c] {
			return tally.Errorf(tally.CodeInvalid, "cline.ReadDatabase", "no column sessions.%s: not Cline's sessions.db", c)
		}
	}
	rows, err := tx.QueryContext(ctx, sessionsSQL)
	if err != nil {
		return err
	}
	defer rows.Close()
	r.out = make(map[string][]tally.Event)
	for rows.Next() {
		var rowid int64
		var id, cwd, started, ended, updated, status, title string
		if err := rows.Scan(&rowid, &id, &cwd, &started, &ended, &updated, &status, &title); err != nil {
			return err
		}
		meta := tally.Meta{SessionID: id, Project: cwd}
		if title != "" {
			meta.Title, meta.TitleWeak = tally.PromptTitle(title), true
		}
		end := tally.Meta{Signal: tally.SignalWorking}
		if ended != "" {
			end.Signal = tally.SignalEnded
		}
		last := stamp(updated)
		if t := stamp(ended); t.After(last) {
			last = t
		}
		r.out[id] = []tally.Event{
			{Kind: tally.EventMeta, At: stamp(started), Meta: meta},
			{Kind: tally.EventMeta, At: last, Meta: end},
		}
	}
	return rows.Err()
}

func (r *sessionsRead) Events(*agentdb.Diags) map[string][]tally.Event { return r.out }

// stamp reads Cline's ISO times; an odd one is no time.
func stamp(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
