package index_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/hermes"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// TestIndexer_Run_FollowsAnAgentDatabase: Hermes keeps every session in
// one SQLite database in WAL mode; a session it adds while Tally runs shows
// up, through the notification on state.db-wal.
func TestIndexer_Run_FollowsAnAgentDatabase(t *testing.T) {
	home := t.TempDir()
	script, err := os.ReadFile("../adapter/hermes/testdata/built-state-v2.sql")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, "state.db")+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{hermes.New(hermes.Options{Home: home})}, Store: st, Rescan: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	changes := ix.Subscribe(1000)
	defer changes.Close()
	done := make(chan error, 1)
	go func() { done <- ix.Run(ctx) }()
	<-ix.Ready()

	const sid = "20261123_090000_live01"
	now := float64(time.Now().Unix())
	if _, err := db.Exec(`INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', ?)`, sid, now); err != nil {
		t.Fatal(err)
	}
	args := `{"todos": [{"id": "1", "content": "Watch the database", "status": "in_progress"}]}`
	calls := `[{"id": "call_live", "type": "function", "function": {"name": "todo", "arguments": ` + quote(args) + `}}]`
	if _, err := db.Exec(`INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
		(?, 'user', 'Follow the db', NULL, NULL, NULL, ?),
		(?, 'assistant', NULL, NULL, ?, NULL, ?)`, sid, now, sid, calls, now+1); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(15 * time.Second)
	for {
		select {
		case c := <-changes.C:
			if c.ID == sid && len(c.Record.Lists[""]) == 1 && c.Record.Lists[""][0].Title == "Watch the database" {
				cancel()
				<-done
				return
			}
		case <-deadline:
			t.Fatal("the session Hermes added to its database never showed")
		}
	}
}

// TestIndexer_Scan_ARestartedIndexerRemovesASessionTheDatabaseDropped: each
// session of a database is saved with the database it came from, so an
// indexer started later knows which sessions a database held and removes
// one the agent deleted meanwhile, rather than showing it for ever.
func TestIndexer_Scan_ARestartedIndexerRemovesASessionTheDatabaseDropped(t *testing.T) {
	home := t.TempDir()
	script, err := os.ReadFile("../adapter/hermes/testdata/built-state-v2.sql")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, "state.db")+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	scan := func() []index.Change {
		t.Helper()
		ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{hermes.New(hermes.Options{Home: home})}, Store: st})
		if err != nil {
			t.Fatal(err)
		}
		changes := ix.Subscribe(1000)
		defer changes.Close()
		if _, err := ix.Scan(ctx); err != nil {
			t.Fatal(err)
		}
		var got []index.Change
		for {
			select {
			case c := <-changes.C:
				got = append(got, c)
			default:
				return got
			}
		}
	}
	const dropped = "20260105_110000_0a0b0c"
	if first := scan(); len(first) != 2 {
		t.Fatalf("first scan published %d changes, want the 2 conversations", len(first))
	}
	if _, err := db.Exec(`DELETE FROM messages WHERE session_id = ?; DELETE FROM sessions WHERE id = ?`, dropped, dropped); err != nil {
		t.Fatal(err)
	}
	var removed []string
	for _, c := range scan() {
		if c.Kind == index.SessionRemoved {
			removed = append(removed, c.ID)
		}
	}
	if len(removed) != 1 || removed[0] != dropped {
		t.Errorf("after a restart, removed %v, want [%s]", removed, dropped)
	}
	if _, err := st.Record(ctx, dropped); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("the store still holds the dropped session: %v", err)
	}
}

func quote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		if r == '"' || r == '\\' {
			b = append(b, '\\')
		}
		b = append(b, string(r)...)
	}
	return string(append(b, '"'))
}

// TestIndexer_Scan_ACommitAReadMissedIsFoundByTheNextScan: SQLite writes a
// commit to the -wal first and makes it visible to readers a moment later,
// in the wal-index header of the -shm file, which no notification names. A
// read in between sees the database as it was, though the -wal has grown;
// the version the indexer records must be the one it read, so that the
// catch-up scan reads the database again once the commit is visible.
func TestIndexer_Scan_ACommitAReadMissedIsFoundByTheNextScan(t *testing.T) {
	home := t.TempDir()
	script, err := os.ReadFile("../adapter/hermes/testdata/built-state-v2.sql")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "state.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one connection, held open: the -wal stays
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{hermes.New(hermes.Options{Home: home})}, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	header := func() []byte { // the wal-index header, both copies
		b := make([]byte, 96)
		f, err := os.Open(path + "-shm")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.ReadAt(b, 0); err != nil {
			t.Fatal(err)
		}
		return b
	}
	setHeader := func(b []byte) {
		f, err := os.OpenFile(path+"-shm", os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt(b, 0); err != nil {
			t.Fatal(err)
		}
	}
	before := header()
	const sid = "20261123_090000_live01"
	now := float64(time.Now().Unix())
	args := `{"todos": [{"id": "1", "content": "Watch the database", "status": "in_progress"}]}`
	calls := `[{"id": "call_live", "type": "function", "function": {"name": "todo", "arguments": ` + quote(args) + `}}]`
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', ?)`, sid, now); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
		(?, 'user', 'Follow the db', NULL, NULL, NULL, ?),
		(?, 'assistant', NULL, NULL, ?, NULL, ?)`, sid, now, sid, calls, now+1); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	// The commit is in the -wal, but readers are not told of it yet.
	after := header()
	setHeader(before)
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Record(ctx, sid); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Fatalf("the read saw the commit before readers were told of it (%v): the test shows nothing", err)
	}
	setHeader(after) // now they are
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	rec, err := st.Record(ctx, sid)
	if err != nil {
		t.Fatalf("the catch-up scan never read the commit it missed: %v", err)
	}
	if items := rec.Lists[""]; len(items) != 1 || items[0].Title != "Watch the database" {
		t.Errorf("list = %+v", items)
	}
}
