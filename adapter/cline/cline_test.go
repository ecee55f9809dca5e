package cline

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
	_ "modernc.org/sqlite"
)

// captured is the Cline 3.0.65 capture tree (see its README).
const captured = "../../testdata/fixtures/captured/cline-3.0.65"

// fx builds and reads teams.db; fxSessions, sessions.db. The scripts are
// sqlite3's .dump of the team-tasks capture's databases (testdata/README.md).
var (
	fx = agentdbtest.Fixture{Agent: Agent, Rel: teamsDB,
		New: func(root string) tally.DatabaseReader { return New(Options{DBDir: root}) }}
	fxSessions = agentdbtest.Fixture{Agent: Agent, Rel: sessionsDB,
		New: func(root string) tally.DatabaseReader { return New(Options{DBDir: root}) }}
)

func scenarios(t *testing.T) []string {
	dirs, _ := filepath.Glob(captured + "/*/cline_data/db")
	if len(dirs) < 2 {
		t.Fatalf("found %d capture databases folders, want 2", len(dirs))
	}
	return dirs
}

// task is a board's task in Cline's own words.
type task struct {
	ID, Title, Status string
	DependsOn         []string
}

// TestList_isClinesOwnBoard: on every real capture the list Tally shows for
// the session is its board as teams.db holds it — each task's id, title,
// status and dependencies, in order — and as the CLI last announced each
// task (its team_task_updated events on stdout, the newest per id).
func TestList_isClinesOwnBoard(t *testing.T) {
	for _, dir := range scenarios(t) {
		db := filepath.Join(dir, teamsDB)
		all := fx.Sessions(t, db)
		want := board(t, db)
		if len(all) != len(want) || len(want) == 0 {
			t.Fatalf("%s: %d boards read, the database has %d", dir, len(all), len(want))
		}
		announced := lastAnnounced(t, filepath.Join(dir, "../../json.stdout.jsonl"))
		for id, evs := range all {
			var got []task
			for _, it := range agentdbtest.List(fx.Fold(id, evs), "") {
				got = append(got, task{it.ID, it.Title, it.StatusWord(), it.BlockedBy})
			}
			if !reflect.DeepEqual(got, want[id]) {
				t.Errorf("%s: list %+v, teams.db %+v", id, got, want[id])
			}
			if !reflect.DeepEqual(got, announced) {
				t.Errorf("%s: list %+v, the CLI's last word on each task %+v", id, got, announced)
			}
		}
	}
}

func board(t *testing.T, path string) map[string][]task {
	conn, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT team_name, task_id, title, status, depends_on_json FROM team_tasks ORDER BY team_name, task_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]task{}
	for rows.Next() {
		var team, deps string
		var k task
		if err := rows.Scan(&team, &k.ID, &k.Title, &k.Status, &deps); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(deps), &k.DependsOn); err != nil {
			t.Fatal(err)
		}
		if len(k.DependsOn) == 0 {
			k.DependsOn = nil
		}
		out[team] = append(out[team], k)
	}
	return out
}

func lastAnnounced(t *testing.T, path string) []task {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	byID := map[string]task{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var l struct {
			Type  string
			Event struct {
				Type string
				Task task
			}
		}
		if json.Unmarshal(sc.Bytes(), &l) == nil && l.Type == "team_event" && l.Event.Type == "team_task_updated" {
			k := l.Event.Task
			if len(k.DependsOn) == 0 {
				k.DependsOn = nil
			}
			byID[k.ID] = k
		}
	}
	var out []task
	for _, k := range byID {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// TestSessions_facts: sessions.db gives each session its folder, title,
// start, and end (a finished CLI run is over).
func TestSessions_facts(t *testing.T) {
	for _, dir := range scenarios(t) {
		all := fxSessions.Sessions(t, filepath.Join(dir, sessionsDB))
		if len(all) != 1 {
			t.Fatalf("%s: %d sessions", dir, len(all))
		}
		for id, evs := range all {
			st := fxSessions.Fold(id, evs)
			if st.Project == "" || st.Title == "" || st.StartedAt.IsZero() || st.Signal != tally.SignalEnded {
				t.Errorf("%s: project %q title %q started %v signal %v", id, st.Project, st.Title, st.StartedAt, st.Signal)
			}
		}
	}
}

func TestSessions_aDamagedDatabaseIsRefused(t *testing.T) {
	fx.Invalid(t, "captured-teams.sql", "DROP TABLE team_tasks")
	fxSessions.Invalid(t, "captured-sessions.sql", "ALTER TABLE sessions RENAME COLUMN cwd TO folder")
}

func TestBoards_badDependenciesAreReportedAndTheTaskKept(t *testing.T) {
	path, w := fx.Build(t, "captured-teams.sql")
	if _, err := w.Exec(`UPDATE team_tasks SET depends_on_json = '{oops' WHERE task_id = 'task_0002'`); err != nil {
		t.Fatal(err)
	}
	all, diags := fx.Read(t, path)
	if len(diags) != 1 {
		t.Fatalf("diagnostics %v, want one", diags)
	}
	for id, evs := range all {
		if n := len(agentdbtest.List(fx.Fold(id, evs), "")); n != 3 {
			t.Errorf("%d tasks, want the 3, the damaged one kept", n)
		}
	}
}

// FuzzDependsOn: whatever depends_on_json holds, the board reads and its
// list encodes.
func FuzzDependsOn(f *testing.F) {
	f.Add(`["task_0001"]`, "blocked")
	f.Add(`[1,null]`, "")
	f.Add(`{`, "waiting")
	base, err := os.MkdirTemp("", "cline-fuzz") // the fuzzer's names hold '#', which a SQLite URI cuts
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(base) })
	script, err := os.ReadFile("testdata/captured-teams.sql")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, deps, status string) {
		dir, err := os.MkdirTemp(base, "in")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, teamsDB)
		w, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if _, err := w.Exec(string(script)); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Exec(`UPDATE team_tasks SET depends_on_json = ?, status = ? WHERE task_id = 'task_0002'`, deps, status); err != nil {
			t.Fatal(err)
		}
		all, _ := fx.Read(t, path)
		for id, evs := range all {
			if _, err := json.Marshal(fx.Fold(id, evs)); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestAdapter_Match(t *testing.T) {
	a := New(Options{DBDir: "/c/data/db"})
	for path, want := range map[string]string{
		"/c/data/db/teams.db": "/c/data/db/teams.db", "/c/data/db/teams.db-wal": "/c/data/db/teams.db",
		"/c/data/db/sessions.db": "/c/data/db/sessions.db", "/c/data/db/other.db": "", "/c/data/db/x/teams.db": "",
	} {
		fi, ok := a.Match("/c/data/db", path)
		if ok != (want != "") || fi.Path != want {
			t.Errorf("Match(%s) = %+v, %v; want %q", path, fi, ok, want)
		}
	}
}

// Cline's rule (its binary's I8/S8 and the db folder's function):
// CLINE_DB_DATA_DIR, else CLINE_DATA_DIR/db, else (CLINE_DIR or
// ~/.cline)/data/db.
func TestDescriptor_home(t *testing.T) {
	for _, c := range []struct {
		vars map[string]string
		want string
	}{
		{nil, "/home/me/.cline/data/db"},
		{map[string]string{"CLINE_DIR": "/c"}, "/c/data/db"},
		{map[string]string{"CLINE_DIR": "/c", "CLINE_DATA_DIR": "/d"}, "/d/db"},
		{map[string]string{"CLINE_DATA_DIR": "/d", "CLINE_DB_DATA_DIR": "/db"}, "/db"},
	} {
		env := adapter.Env{Getenv: func(k string) string { return c.vars[k] }, Home: "/home/me"}
		if got := Descriptor.Dirs(env, nil).Get(""); got != c.want {
			t.Errorf("%v: %q, want %q", c.vars, got, c.want)
		}
	}
}
