package kilo

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/adapter/internal/agentdb/agentdbtest"
	"github.com/tallyhq/tally/adapter/internal/opencodedb/opencodedbtest"
)

// captured is the real Kilo Code 7.7.9 run (see the captures' README).
const captured = "../../testdata/fixtures/captured/kilo-7.7.9/todowrite"

// fx is how Kilo keeps kilo.db: at the top of its data directory.
// testdata/captured-kilo-7.7.9.sql is sqlite3's .dump of the capture's
// database, for the tests that build or damage one.
var fx = agentdbtest.Fixture{
	Agent: Agent,
	Rel:   dbName,
	New:   func(root string) tally.DatabaseReader { return New(Options{DataDir: root}) },
}

// TestList_isKilosOwnTodoTable: on the real capture the list Tally shows
// is the session's rows of Kilo's todo table, in position order — the list
// Kilo keeps — and what the last todowrite returned (its
// metadata.todos in `kilo run --format json`).
func TestList_isKilosOwnTodoTable(t *testing.T) {
	db := filepath.Join(captured, "kilo_data", dbName)
	c := opencodedbtest.Capture{Agent: "Kilo", Dir: captured, DB: db}
	c.CheckTodoTable(t, fx.Sessions(t, db), fx.Fold, func(id string, st *tally.FileState, _ *sql.DB) {
		if st.Title != "Greet helper with test and README" || st.Project != "/tmp/cap2/runs/kilo/todowrite/work" || st.Signal != tally.SignalWaiting {
			t.Errorf("title %q, project %q, signal %v", st.Title, st.Project, st.Signal)
		}
	})
}

func TestSessions_aDamagedDatabaseIsRefused(t *testing.T) {
	fx.Invalid(t, "captured-kilo-7.7.9.sql", "DROP TABLE todo")
}

// FuzzRows: whatever a todo row and the newest message hold, the database
// reads, and every session folds to a list that encodes.
func FuzzRows(f *testing.F) {
	f.Add("Write greet.py", "in_progress", "high", `{"role":"assistant","time":{"completed":1}}`)
	f.Add("", "", "", `{`)
	f.Add("\xff", "waiting", "urgent", `{"role":7}`)
	// The database is built once; each input gets a copy. Folders of
	// their own: the fuzzer's test names hold '#', which a SQLite URI cuts.
	base, err := os.MkdirTemp("", "kilo-fuzz")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(base) })
	script, err := os.ReadFile("testdata/captured-kilo-7.7.9.sql")
	if err != nil {
		f.Fatal(err)
	}
	built := filepath.Join(base, dbName)
	b, err := sql.Open("sqlite", "file:"+built)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := b.Exec(string(script)); err != nil {
		f.Fatal(err)
	}
	b.Close()
	image, err := os.ReadFile(built)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, content, status, priority, data string) {
		dir, err := os.MkdirTemp(base, "in")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, dbName)
		if err := os.WriteFile(path, image, 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if _, err := w.Exec(`INSERT INTO todo (session_id, content, status, priority, position, time_created, time_updated)
			VALUES ('ses_de8fcf775ffeoG2reKnswjYgVT', ?, ?, ?, 3, 1, 1)`, content, status, priority); err != nil {
			t.Fatal(err)
		}
		// Kilo indexes json_extract(data): a message it keeps is JSON.
		if _, err := w.Exec(`INSERT INTO message (id, session_id, time_created, time_updated, data)
			VALUES ('msg_fuzz', 'ses_de8fcf775ffeoG2reKnswjYgVT', 9e12, 9e12, ?)`, data); err != nil {
			return
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
	a := New(Options{DataDir: "/d"})
	for path, want := range map[string]string{
		"/d/kilo.db": "/d/kilo.db", "/d/kilo.db-wal": "/d/kilo.db", "/d/kilo-nightly.db": "/d/kilo-nightly.db",
		"/d/kilo.db-shm": "", "/d/opencode.db": "", "/d/log/kilo.db": "", "/d/storage/session_diff/ses_1.json": "",
	} {
		fi, ok := a.Match("/d", path)
		if ok != (want != "") || fi.Path != want || ok && fi.Layout != tally.LayoutDatabase {
			t.Errorf("Match(%s) = %+v, %v; want %q", path, fi, ok, want)
		}
	}
	if got := New(Options{DataDir: "/d", DB: "alt/k.db"}).Roots(); !reflect.DeepEqual(got, []string{"/d", "/d/alt"}) {
		t.Errorf("roots with a relative KILO_DB: %v", got)
	}
	if got := New(Options{DataDir: "/d", DB: ":memory:"}); got.place.DB != "" {
		t.Errorf("KILO_DB=:memory: reads %q", got.place.DB)
	}
	if !a.SkipDir("/d", "/d/log") || !a.SkipDir("/d", "/d/storage") {
		t.Error("folders of the data directory are walked")
	}
}

// Kilo's data directory is xdg-basedir's data folder + kilo; KILO_DB
// moves the database.
func TestDescriptor_homes(t *testing.T) {
	env := func(vars map[string]string) adapter.Env {
		return adapter.Env{Getenv: func(k string) string { return vars[k] }, Home: "/home/me"}
	}
	if got := Descriptor.Dirs(env(nil), nil).Get(""); got != "/home/me/.local/share/kilo" {
		t.Errorf("data dir %q", got)
	}
	d := Descriptor.Dirs(env(map[string]string{"XDG_DATA_HOME": "/x", "KILO_DB": "/db/k.db"}), nil)
	if d.Get("") != "/x/kilo" || d.Get("db") != "/db/k.db" {
		t.Errorf("dirs %v", d)
	}
}
