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
